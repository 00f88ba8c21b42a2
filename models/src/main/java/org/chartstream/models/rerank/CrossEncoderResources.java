package org.chartstream.models.rerank;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.chartstream.models.ModelResourceNotFoundException;

/** Resolves a descriptor's resource strings: bare or {@code classpath:} names, and {@code file:} paths. */
final class CrossEncoderResources {
    private static final String FILE = "file:";
    private static final String CLASSPATH = "classpath:";

    private CrossEncoderResources() {
    }

    static boolean isFile(String resource) {
        return resource.startsWith(FILE);
    }

    static Path existingFile(String resource, CrossEncoderDescriptor d) {
        String rest = resource.substring(FILE.length());
        Path p = rest.startsWith("//") ? Path.of(URI.create(resource)) : Path.of(rest);
        if (!Files.isRegularFile(p)) {
            throw new ModelResourceNotFoundException(resource, "cross-encoder resource " + resource + " of model '"
                    + d.id() + "' not found on disk (" + p.toAbsolutePath() + "): fetch the model's ONNX export and"
                    + " tokenizer.json (see models/README.md), or point the descriptor at other files"
                    + " (CrossEncoderDescriptor.withFiles)");
        }
        return p;
    }

    static InputStream open(String resource, CrossEncoderDescriptor d) {
        try {
            if (isFile(resource)) {
                return Files.newInputStream(existingFile(resource, d));
            }
            String name = resource.startsWith(CLASSPATH) ? resource.substring(CLASSPATH.length()) : resource;
            while (name.startsWith("/")) {
                name = name.substring(1);
            }
            ClassLoader tccl = Thread.currentThread().getContextClassLoader();
            InputStream in = tccl == null ? null : tccl.getResourceAsStream(name);
            if (in == null) {
                in = CrossEncoderResources.class.getClassLoader().getResourceAsStream(name);
            }
            if (in == null) {
                throw new ModelResourceNotFoundException(resource, "cross-encoder resource " + name + " of model '"
                        + d.id() + "' not found on the classpath; set the descriptor's resources to files on disk"
                        + " (\"file:/path/model.onnx\", CrossEncoderDescriptor.withFiles)");
            }
            return in;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read cross-encoder resource " + resource + " of model '" + d.id() + "'", e);
        }
    }

    static byte[] readAll(String resource, CrossEncoderDescriptor d) {
        try (InputStream in = open(resource, d)) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read cross-encoder resource " + resource + " of model '" + d.id() + "'", e);
        }
    }
}

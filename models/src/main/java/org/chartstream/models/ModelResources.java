package org.chartstream.models;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;

/** Resolves descriptor resource strings: bare or {@code classpath:} names, and {@code file:} paths. */
final class ModelResources {
    private static final String FILE = "file:";
    private static final String CLASSPATH = "classpath:";

    private ModelResources() {}

    static boolean isFile(String resource) {
        return resource.startsWith(FILE);
    }

    static Path path(String resource) {
        String rest = resource.substring(FILE.length());
        if (rest.startsWith("//")) {
            return Path.of(URI.create(resource));
        }
        return Path.of(rest);
    }

    /** The existing file a {@code file:} resource names. */
    static Path existingFile(String resource, ModelDescriptor d) {
        Path p = path(resource);
        if (!Files.isRegularFile(p)) {
            throw new ModelResourceNotFoundException(resource, "model resource " + resource + " of model '" + d.id()
                    + "' not found on disk (" + p.toAbsolutePath() + "): " + d.whereToGet()
                    + ", or point the descriptor at another file (ModelDescriptor.withFiles)");
        }
        return p;
    }

    /** Fails with {@link ModelResourceNotFoundException} unless the resource exists; opens nothing. */
    static void requireAvailable(String resource, ModelDescriptor d) {
        if (isFile(resource)) {
            existingFile(resource, d);
            return;
        }
        String name = classpathName(resource);
        ClassLoader tccl = Thread.currentThread().getContextClassLoader();
        if ((tccl == null || tccl.getResource(name) == null)
                && ModelResources.class.getClassLoader().getResource(name) == null) {
            throw notOnClasspath(resource, name, d);
        }
    }

    /** Opens the resource; the caller closes the stream. */
    static InputStream open(String resource, ModelDescriptor d) {
        try {
            if (isFile(resource)) {
                return Files.newInputStream(existingFile(resource, d));
            }
            String name = classpathName(resource);
            InputStream in = null;
            ClassLoader tccl = Thread.currentThread().getContextClassLoader();
            if (tccl != null) {
                in = tccl.getResourceAsStream(name);
            }
            if (in == null) {
                in = ModelResources.class.getClassLoader().getResourceAsStream(name);
            }
            if (in == null) {
                throw notOnClasspath(resource, name, d);
            }
            return in;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read model resource " + resource + " of model '" + d.id() + "'", e);
        }
    }

    private static String classpathName(String resource) {
        String name = resource.startsWith(CLASSPATH) ? resource.substring(CLASSPATH.length()) : resource;
        while (name.startsWith("/")) {
            name = name.substring(1);
        }
        return name;
    }

    private static ModelResourceNotFoundException notOnClasspath(String resource, String name, ModelDescriptor d) {
        return new ModelResourceNotFoundException(resource, "model resource " + name + " of model '" + d.id()
                + "' not found on the classpath: " + d.whereToGet()
                + ", or set the descriptor's resources to files on disk (\"file:/path/model.onnx\", "
                + "ModelDescriptor.withFiles)");
    }

    static byte[] readAll(String resource, ModelDescriptor d) {
        try (InputStream in = open(resource, d)) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read model resource " + resource + " of model '" + d.id() + "'", e);
        }
    }
}

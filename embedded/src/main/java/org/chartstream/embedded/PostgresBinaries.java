package org.chartstream.embedded;

import io.zonky.test.db.postgres.embedded.DefaultPostgresBinaryResolver;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import io.zonky.test.db.postgres.embedded.PgBinaryResolver;
import io.zonky.test.db.postgres.util.ArchUtils;
import io.zonky.test.db.postgres.util.LinuxUtils;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Where {@link EmbeddedPostgresSource}'s PostgreSQL binaries come from and are extracted to (zonky's jars). */
final class PostgresBinaries {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedPostgresSource.class);

    private PostgresBinaries() {
    }

    /**
     * Zonky's resolver, minus its "Duplicate embedded postgres binaries" failure: when the same binaries jar is
     * reachable twice on the class path (for example the app's packaged jar, whose manifest {@code Class-Path} names
     * {@code lib/*.jar}, next to the same jars from the Maven repository), both copies are the same file, so the first
     * one is taken. Same resource names as zonky 2.2 ({@code postgres-<system>-<arch>[-<distribution>].txz}); anything
     * else (ARM emulation fallback, missing binaries) is left to zonky.
     */
    static final class FirstMatchBinaryResolver implements PgBinaryResolver {
        static final FirstMatchBinaryResolver INSTANCE = new FirstMatchBinaryResolver();

        @Override
        public InputStream getPgBinary(String system, String machineHardware) throws IOException {
            String arch = ArchUtils.normalize(machineHardware);
            String distribution = LinuxUtils.getDistributionName();
            List<String> names = new ArrayList<>();
            if (distribution != null) {
                names.add(resourceName(system + "-" + arch + "-" + distribution));
            }
            names.add(resourceName(system + "-" + arch));
            ClassLoader loader = DefaultPostgresBinaryResolver.class.getClassLoader();
            for (String name : names) {
                URL url = loader.getResource(name);
                if (url != null) {
                    return url.openStream();
                }
            }
            return DefaultPostgresBinaryResolver.INSTANCE.getPgBinary(system, machineHardware);
        }

        private static String resourceName(String middle) {
            return ("postgres-" + middle + ".txz").replace(' ', '_').toLowerCase(Locale.ROOT);
        }
    }

    static Path defaultBinariesDir() {
        String prop = System.getProperty(EmbeddedPostgresSource.BINARIES_DIR_PROPERTY);
        if (prop != null && !prop.isBlank()) {
            return Path.of(prop);
        }
        String env = System.getenv("CHARTSTREAM_PG_BINARIES");
        if (env != null && !env.isBlank()) {
            return Path.of(env);
        }
        return Path.of(System.getProperty("user.home"), ".cache", "chartstream", "embedded-postgres");
    }

    static boolean binariesDirConfigured() {
        String prop = System.getProperty(EmbeddedPostgresSource.BINARIES_DIR_PROPERTY);
        String env = System.getenv("CHARTSTREAM_PG_BINARIES");
        return (prop != null && !prop.isBlank()) || (env != null && !env.isBlank());
    }

    /**
     * Zonky makes its working directory world-writable; anyone could then swap the extracted binaries that this
     * (possibly root) process executes. Put it back to {@code rwxr-xr-x} when we own it.
     */
    static void restrictWorkingDirectory(Path bins) {
        try {
            if (((Number) Files.getAttribute(bins, "unix:uid")).longValue() == RootPostgres.currentUid()) {
                Files.setPosixFilePermissions(bins, PosixFilePermissions.fromString("rwxr-xr-x"));
            }
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            LOG.debug("could not restrict {}: {}", bins, e.toString());
        }
    }

    /** Zonky's own extraction ({@code EmbeddedPostgres.prepareBinaries}), so the wrappers go where zonky looks. */
    static Path prepareBinaries(PgBinaryResolver resolver, Path workingDir) throws IOException {
        try {
            Method m = EmbeddedPostgres.class.getDeclaredMethod("prepareBinaries", PgBinaryResolver.class, File.class);
            m.setAccessible(true);
            return ((File) m.invoke(null, resolver, workingDir.toFile())).toPath();
        } catch (InvocationTargetException e) {
            throw new IOException("extracting the PostgreSQL binaries failed: " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IOException("this zonky version does not offer prepareBinaries(PgBinaryResolver, File) "
                    + "(expected io.zonky.test:embedded-postgres:2.2.x): " + e, e);
        }
    }
}

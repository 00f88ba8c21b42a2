package org.chartstream.embedded;

import io.zonky.test.db.postgres.util.LinuxUtils;
import java.io.File;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.chartstream.embedded.EmbeddedPostgresSource.ProcessOwner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link EmbeddedPostgresSource} run by root: who the server runs as ({@link #decideOwner()}), the data directory's
 * owner, and for {@link ProcessOwner#UNPRIVILEGED_USER} the privilege-dropping wrappers around
 * {@code initdb} and {@code pg_ctl} and the binaries' and data directory's reachability for that user.
 */
final class RootPostgres {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedPostgresSource.class);
    private static final String WRAPPER_MARK = "# chartstream EmbeddedPostgresSource privilege-dropping wrapper";
    private static final List<String> WRAPPED = List.of("initdb", "pg_ctl");

    private RootPostgres() {
    }

    static ProcessOwner decideOwner() {
        if (!isLinux() || currentUid() != 0) {
            return ProcessOwner.CURRENT_USER;
        }
        return LinuxUtils.isUnshareAvailable() ? ProcessOwner.ROOT_IN_USER_NAMESPACE : ProcessOwner.UNPRIVILEGED_USER;
    }

    private static boolean isLinux() {
        return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux");
    }

    static long currentUid() {
        try {
            Object uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
            return ((Number) uid).longValue();
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return -1;
        }
    }

    static void chownTree(Path root, long uid, long gid) throws IOException {
        if (currentUid() != 0) {
            return;
        }
        Object topUid = Files.getAttribute(root, "unix:uid", LinkOption.NOFOLLOW_LINKS);
        Object topGid = Files.getAttribute(root, "unix:gid", LinkOption.NOFOLLOW_LINKS);
        if (((Number) topUid).longValue() == uid && ((Number) topGid).longValue() == gid && isEmptyOrOwned(root, uid)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : (Iterable<Path>) paths::iterator) {
                if (((Number) Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS)).longValue() != uid) {
                    Files.setAttribute(p, "unix:uid", (int) uid, LinkOption.NOFOLLOW_LINKS);
                }
                if (((Number) Files.getAttribute(p, "unix:gid", LinkOption.NOFOLLOW_LINKS)).longValue() != gid) {
                    Files.setAttribute(p, "unix:gid", (int) gid, LinkOption.NOFOLLOW_LINKS);
                }
            }
        }
    }

    private static boolean isEmptyOrOwned(Path root, long uid) throws IOException {
        // cheap check: the cluster's PG_VERSION file tells who owns the cluster files
        Path version = root.resolve("PG_VERSION");
        return !Files.exists(version, LinkOption.NOFOLLOW_LINKS)
                || ((Number) Files.getAttribute(version, "unix:uid", LinkOption.NOFOLLOW_LINKS)).longValue() == uid;
    }

    static void installWrappers(Path pgDir, RunAs runAs, Path data) throws IOException {
        synchronized (EmbeddedPostgresSource.class) { // the file lock below is per process, this is per thread
            Path bin = pgDir.resolve("bin");
            Path lockFile = pgDir.resolve(".chartstream-wrappers.lock");
            try (FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock ignored = ch.lock()) {
                for (String name : WRAPPED) {
                    Path program = bin.resolve(name);
                    Path real = bin.resolve(name + ".real");
                    if (Files.exists(program) && !isWrapper(program)) {
                        // fresh (re-)extraction: the program is the real binary. Keep it as name.real (a hard link,
                        // so bin/<name> never disappears for a concurrent user); the wrapper replaces it atomically.
                        Path tmp = bin.resolve(name + ".real.tmp");
                        Files.deleteIfExists(tmp);
                        try {
                            Files.createLink(tmp, program);
                        } catch (IOException | UnsupportedOperationException e) {
                            Files.copy(program, tmp, StandardCopyOption.COPY_ATTRIBUTES);
                        }
                        Files.move(tmp, real, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                    }
                    if (!Files.isExecutable(real)) {
                        throw new IOException("broken PostgreSQL binaries in " + pgDir + " (no " + real.getFileName()
                                + "); delete that directory to have it extracted again");
                    }
                }
                List<String> caps = capabilitiesNeeded(runAs, data);
                for (String name : WRAPPED) {
                    writeWrapper(bin.resolve(name), name + ".real", runAs, caps);
                }
                // zonky re-extracts when a file in the binaries directory is newer than its ".exists" marker
                File marker = pgDir.resolve(".exists").toFile();
                if (marker.exists() && !marker.setLastModified(System.currentTimeMillis() + 1000)) {
                    LOG.warn("could not touch {}", marker);
                }
            }
        }
    }

    private static boolean isWrapper(Path program) throws IOException {
        if (!Files.isRegularFile(program) || Files.size(program) > 8192) {
            return false;
        }
        return new String(Files.readAllBytes(program), StandardCharsets.ISO_8859_1).contains(WRAPPER_MARK);
    }

    private static void writeWrapper(Path program, String realName, RunAs runAs, List<String> caps)
            throws IOException {
        String setpriv = String.join(" ", runAs.setpriv(caps));
        String script = "#!/bin/sh\n"
                + WRAPPER_MARK + "\n"
                + "# initdb and postgres refuse to run as root: drop to uid " + runAs.uid + " (" + runAs.name + ").\n"
                + "real=\"$(dirname \"$0\")/" + realName + "\"\n"
                + "if [ \"$(id -u)\" = 0 ]; then\n"
                + "  exec " + setpriv + " -- \"$real\" \"$@\"\n"
                + "fi\n"
                + "exec \"$real\" \"$@\"\n";
        if (Files.exists(program) && script.equals(Files.readString(program, StandardCharsets.ISO_8859_1))) {
            return;
        }
        Path tmp = program.resolveSibling(program.getFileName() + ".tmp");
        Files.writeString(tmp, script, StandardCharsets.ISO_8859_1);
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.move(tmp, program, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * The binaries must be reachable by the unprivileged user without any capability: initdb and pg_ctl check their
     * own and the server's executable with {@code access(2)}, which ignores capabilities for a non-root real uid.
     * When the default directory is not reachable (a parent such as {@code /root} is {@code 0700}), the binaries go
     * to {@code /var/cache/chartstream/embedded-postgres} (root-owned, {@code 0755}) instead.
     */
    static Path reachableBinariesDir(RunAs runAs, Path bins, boolean explicit) throws IOException {
        if (reachable(runAs, bins)) {
            return bins;
        }
        if (explicit) {
            throw new IOException("PostgreSQL must run as " + runAs.name + " (the JVM is root and user namespaces are "
                    + "unavailable), but " + runAs.name + " cannot reach the binaries directory " + bins
                    + ": choose one it can traverse (" + EmbeddedPostgresSource.BINARIES_DIR_PROPERTY + ")");
        }
        Path fallback = Path.of("/var/cache/chartstream/embedded-postgres");
        Files.createDirectories(fallback);
        for (Path p = fallback; p != null && p.startsWith("/var/cache/chartstream"); p = p.getParent()) {
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        if (!reachable(runAs, fallback)) {
            throw new IOException(runAs.name + " can reach neither " + bins + " nor " + fallback
                    + " for the PostgreSQL binaries; set " + EmbeddedPostgresSource.BINARIES_DIR_PROPERTY);
        }
        LOG.info("{} cannot reach {}: PostgreSQL binaries go to {}", runAs.name, bins, fallback);
        return fallback;
    }

    private static boolean reachable(RunAs runAs, Path dir) throws IOException {
        return run(concat(runAs.setpriv(List.of()), List.of("sh", "-c", "test -x \"$1\" && test -r \"$1\"", "probe",
                dir.toString()))) == 0;
    }

    /**
     * Empty if the user reaches the data directory; else the options that give PostgreSQL the
     * {@code CAP_DAC_READ_SEARCH} ambient capability, so it can traverse the directory's parents (it only needs to
     * reach the directory; after {@code chdir} it uses relative paths).
     */
    private static List<String> capabilitiesNeeded(RunAs runAs, Path data) throws IOException {
        List<String> probe = List.of("sh", "-c", "test -w \"$1\" && test -x \"$1\"", "probe", data.toString());
        if (run(concat(runAs.setpriv(List.of()), probe)) == 0) {
            return List.of();
        }
        List<String> caps = List.of("--inh-caps=+dac_read_search", "--ambient-caps=+dac_read_search");
        if (run(concat(runAs.setpriv(caps), probe)) == 0) {
            LOG.info("{} cannot traverse a parent of {}: giving PostgreSQL CAP_DAC_READ_SEARCH", runAs.name, data);
            return caps;
        }
        throw new IOException("PostgreSQL cannot run as root and user " + runAs.name + " (uid " + runAs.uid
                + ") cannot reach the data directory " + data + ", even with CAP_DAC_READ_SEARCH. Use a directory that "
                + "user can traverse, or choose another user with -D" + EmbeddedPostgresSource.RUN_AS_USER_PROPERTY + "=<user>.");
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    private static int run(List<String> command) throws IOException {
        Process p;
        try {
            p = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            throw new IOException("cannot run " + command.get(0) + " (util-linux): it is needed to run PostgreSQL "
                    + "as an unprivileged user when the JVM runs as root: " + e.getMessage(), e);
        }
        try {
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return -1;
            }
            return p.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IOException("interrupted while running " + command.get(0), e);
        }
    }

    private static String output(List<String> command) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return p.waitFor() == 0 ? out : null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running " + command.get(0), e);
        }
    }

    /** The user the server runs as in {@link ProcessOwner#UNPRIVILEGED_USER} mode. */
    record RunAs(String name, long uid, long gid) {
        List<String> setpriv(List<String> extra) {
            return concat(List.of("setpriv", "--reuid=" + uid, "--regid=" + gid, "--clear-groups"), extra);
        }

        static RunAs resolve(String user) throws IOException {
            if (user.matches("\\d+")) {
                return new RunAs(user, Long.parseLong(user), Long.parseLong(user));
            }
            String uid = output(List.of("id", "-u", user));
            String gid = output(List.of("id", "-g", user));
            if (uid != null && gid != null && uid.matches("\\d+") && gid.matches("\\d+")) {
                if (uid.equals("0")) {
                    throw new IOException("PostgreSQL cannot run as root; choose another user than " + user);
                }
                return new RunAs(user, Long.parseLong(uid), Long.parseLong(gid));
            }
            if (user.equals("nobody")) {
                return new RunAs("nobody", 65534, 65534); // the usual overflow ids
            }
            throw new IOException("unknown user " + user + " (" + EmbeddedPostgresSource.RUN_AS_USER_PROPERTY + ")");
        }
    }
}

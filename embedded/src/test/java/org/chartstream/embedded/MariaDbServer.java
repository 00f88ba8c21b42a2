package org.chartstream.embedded;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.chartstream.connectors.SourceConnection;
import org.chartstream.connectors.SourceKind;

/**
 * Debian's {@code mariadbd} started by the tests themselves: a fresh data directory under a temporary directory,
 * a free loopback port, {@code log-bin} with {@code binlog_format=ROW} and {@code binlog_row_image=FULL}, one
 * database and a user {@code dbz} with the Debezium grants (and every right on that database, for the tests'
 * writes). Install with {@code apt-get install -y mariadb-server} ({@code .ci/run} does).
 */
public final class MariaDbServer implements AutoCloseable {
    public static final String USER = "dbz";
    public static final String PASSWORD = "dbz-test";

    private final Path dir;
    private final int port;
    private final String database;
    private Process process;

    private MariaDbServer(Path dir, int port, String database, Process process) {
        this.dir = dir;
        this.port = port;
        this.database = database;
        this.process = process;
    }

    /** True when Debian's server binaries are installed. */
    public static boolean installed() {
        return Files.isExecutable(Path.of("/usr/sbin/mariadbd")) && Files.isExecutable(Path.of("/usr/bin/mariadb-install-db"));
    }

    public static MariaDbServer start(String database) throws IOException, InterruptedException {
        if (!installed()) {
            throw new IllegalStateException("mariadbd is not installed: apt-get install -y mariadb-server");
        }
        Path dir = Files.createTempDirectory("chartstream-mariadb-");
        boolean root = "root".equals(System.getProperty("user.name"));
        Path data = dir.resolve("data");
        Files.createDirectories(data);
        if (root) {
            run(List.of("chown", "-R", "mysql:mysql", dir.toString()), dir.resolve("chown.log"));
        }
        List<String> install = new ArrayList<>(List.of("mariadb-install-db", "--no-defaults", "--datadir=" + data,
                "--auth-root-authentication-method=normal", "--skip-test-db"));
        if (root) {
            install.add("--user=mysql");
        }
        run(install, dir.resolve("install.log"));
        int port = freePort();
        Path socket = dir.resolve("mysqld.sock");
        String cnf = "[mariadbd]\n"
                + "datadir=" + data + "\n"
                + "socket=" + socket + "\n"
                + "pid-file=" + dir.resolve("mysqld.pid") + "\n"
                + "port=" + port + "\n"
                + "bind-address=127.0.0.1\n"
                + (root ? "user=mysql\n" : "")
                + "server-id=1\n"
                + "log-bin=" + dir.resolve("binlog") + "\n"
                + "binlog_format=ROW\n"
                + "binlog_row_image=FULL\n"
                + "skip-name-resolve\n"
                + "innodb_buffer_pool_size=64M\n"
                + "innodb_flush_log_at_trx_commit=2\n"
                + "log-error=" + dir.resolve("error.log") + "\n";
        Files.writeString(dir.resolve("my.cnf"), cnf);
        MariaDbServer server = new MariaDbServer(dir, port, database, startProcess(dir));
        try {
            server.awaitReady(socket);
            server.createDatabaseAndUser(socket);
            return server;
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
    }

    private static Process startProcess(Path dir) throws IOException {
        return new ProcessBuilder("mariadbd", "--defaults-file=" + dir.resolve("my.cnf"))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("mariadbd.out").toFile())).start();
    }

    /**
     * Stops the server the way an operator's restart does (SIGTERM: a clean shutdown that closes the binlog) and
     * starts it again on the same data directory, binlog and port.
     */
    public synchronized void restart() throws IOException, InterruptedException {
        stopProcess();
        process = startProcess(dir);
        awaitReady(dir.resolve("mysqld.sock"));
    }

    private void awaitReady(Path socket) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("mariadbd exited with " + process.exitValue() + "; see " + dir.resolve("error.log"));
            }
            Process ping = new ProcessBuilder("mariadb-admin", "--no-defaults", "--socket=" + socket, "-uroot", "ping")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (ping.waitFor(10, TimeUnit.SECONDS) && ping.exitValue() == 0) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IOException("mariadbd not ready within 60 s; see " + dir.resolve("error.log"));
    }

    private void createDatabaseAndUser(Path socket) throws IOException, InterruptedException {
        // mariadb-install-db creates anonymous ''@localhost users that shadow dbz@'%' for 127.0.0.1 logins
        String sql = "DELETE FROM mysql.global_priv WHERE User='';"
                + "FLUSH PRIVILEGES;"
                + "CREATE DATABASE `" + database + "`;"
                + "CREATE USER '" + USER + "'@'%' IDENTIFIED BY '" + PASSWORD + "';"
                + "CREATE USER '" + USER + "'@'localhost' IDENTIFIED BY '" + PASSWORD + "';"
                + "GRANT SELECT, RELOAD, SHOW DATABASES, REPLICATION SLAVE, BINLOG MONITOR, LOCK TABLES ON *.* TO '" + USER + "'@'%';"
                + "GRANT SELECT, RELOAD, SHOW DATABASES, REPLICATION SLAVE, BINLOG MONITOR, LOCK TABLES ON *.* TO '" + USER + "'@'localhost';"
                + "GRANT ALL PRIVILEGES ON `" + database + "`.* TO '" + USER + "'@'%';"
                + "GRANT ALL PRIVILEGES ON `" + database + "`.* TO '" + USER + "'@'localhost';"
                + "FLUSH PRIVILEGES;";
        run(List.of("mariadb", "--no-defaults", "--socket=" + socket, "-uroot", "-e", sql), dir.resolve("setup.log"));
    }

    public int port() {
        return port;
    }

    public String database() {
        return database;
    }

    public String jdbcUrl() {
        return "jdbc:mariadb://127.0.0.1:" + port + "/" + database;
    }

    public Connection connection() throws SQLException {
        return DriverManager.getConnection(jdbcUrl(), USER, PASSWORD);
    }

    public SourceConnection sourceConnection(String sourceId, List<String> tables) {
        return SourceConnection.of(sourceId, SourceKind.MARIADB, "127.0.0.1", port, database, USER, PASSWORD, null, tables);
    }

    public void execute(String... statements) throws SQLException {
        try (Connection c = connection(); Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }

    /** Stops the server and deletes its directory (data, binlogs, logs). */
    @Override
    public void close() {
        try {
            stopProcess();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        try (java.util.stream.Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            System.err.println("could not delete " + dir + ": " + e.getMessage());
        }
    }

    private synchronized void stopProcess() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static void run(List<String> command, Path log) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException(command.get(0) + " failed; see " + log + ": " + Files.readString(log));
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            return s.getLocalPort();
        }
    }
}

package org.chartstream.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Embedded PostgreSQL as a CDC source: logical WAL, persistence across restarts (also in place), and running as root. */
class EmbeddedPostgresSourceIT {

    @Test
    void logicalWalAndDataSurviveARestart() throws Exception {
        Path dir = Path.of("target", "it", "EmbeddedPostgresSourceIT-" + System.currentTimeMillis()).toAbsolutePath();
        long t0 = System.nanoTime();
        int firstPort;
        try (EmbeddedPostgresSource pg = EmbeddedPostgresSource.start(dir)) {
            System.out.printf("[EmbeddedPostgresSourceIT] start %d ms (%s)%n", (System.nanoTime() - t0) / 1_000_000,
                    pg.processOwner());
            firstPort = pg.port();
            assertThat(pg.jdbcUrl()).isEqualTo("jdbc:postgresql://127.0.0.1:" + pg.port() + "/postgres?user=postgres");
            if (RootPostgres.currentUid() == 0) {
                assertThat(pg.processOwner()).isNotEqualTo(EmbeddedPostgresSource.ProcessOwner.CURRENT_USER);
            } else {
                assertThat(pg.processOwner()).isEqualTo(EmbeddedPostgresSource.ProcessOwner.CURRENT_USER);
            }
            try (Connection c = pg.connection(); Statement s = c.createStatement()) {
                assertThat(single(s, "show wal_level")).isEqualTo("logical");
                assertThat(Integer.parseInt(single(s, "show max_replication_slots"))).isGreaterThanOrEqualTo(4);
                assertThat(Integer.parseInt(single(s, "show max_wal_senders"))).isGreaterThanOrEqualTo(4);
                s.execute("create table kept(id int primary key)");
                s.execute("insert into kept values (1), (2)");
                s.execute("select pg_create_logical_replication_slot('kept_slot', 'pgoutput')");
            }
            var src = pg.sourceConnection("pg1", List.of("kept"));
            assertThat(src.port()).isEqualTo(pg.port());
            assertThat(src.host()).isEqualTo("127.0.0.1");
            assertThat(src.user()).isEqualTo("postgres");
            assertThat(src.namespace()).isEqualTo("public");

            long tr = System.nanoTime();
            try (EmbeddedPostgresSource again = pg.restart()) {
                System.out.printf("[EmbeddedPostgresSourceIT] restart in place %d ms%n", (System.nanoTime() - tr) / 1_000_000);
                assertThat(again.port()).isEqualTo(firstPort);
                try (Connection c = again.connection(); Statement s = c.createStatement()) {
                    assertThat(single(s, "select count(*) from kept")).isEqualTo("2");
                }
            }
        }
        long t1 = System.nanoTime();
        try (EmbeddedPostgresSource pg = EmbeddedPostgresSource.builder(dir).port(EmbeddedKafkaBroker.freePort(firstPort))
                .start()) {
            System.out.printf("[EmbeddedPostgresSourceIT] restart %d ms%n", (System.nanoTime() - t1) / 1_000_000);
            try (Connection c = pg.connection(); Statement s = c.createStatement()) {
                assertThat(single(s, "select count(*) from kept")).isEqualTo("2");
                assertThat(single(s, "select count(*) from pg_replication_slots where slot_name = 'kept_slot'"))
                        .isEqualTo("1");
            }
        }
    }

    /**
     * Without usable user namespaces (a container whose seccomp profile blocks {@code unshare}) PostgreSQL never runs
     * as root: a root JVM, whose zonky root support is then off, runs it as an unprivileged user through the wrappers;
     * any other JVM runs it as its own user. Simulated in a separate JVM whose PATH starts with an {@code unshare} that
     * fails. Afterwards, as root, the same data directory starts again in this JVM (user-namespace mode): switching
     * modes re-owns the files.
     */
    @Test
    void withoutUserNamespacesPostgresRunsAsAnUnprivilegedUserAlsoWhenTheJvmIsRoot() throws Exception {
        boolean root = RootPostgres.currentUid() == 0;
        Path work = Path.of("target", "it", "EmbeddedPostgresRootFallback-" + System.currentTimeMillis())
                .toAbsolutePath();
        Path fakeBin = work.resolve("fake-bin");
        Files.createDirectories(fakeBin);
        Path unshare = fakeBin.resolve("unshare");
        Files.writeString(unshare, "#!/bin/sh\necho 'unshare: unshare failed: Operation not permitted' >&2\nexit 1\n");
        Files.setPosixFilePermissions(unshare, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path pgDir = work.resolve("pg");

        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-cp");
        cmd.add(ChildJvmClassPath.get());
        String binaries = System.getProperty(EmbeddedPostgresSource.BINARIES_DIR_PROPERTY);
        if (binaries != null) {
            cmd.add("-D" + EmbeddedPostgresSource.BINARIES_DIR_PROPERTY + "=" + binaries);
        }
        cmd.add(EmbeddedPostgresSelfCheck.class.getName());
        cmd.add(pgDir.toString());
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(work.resolve("child.log").toFile());
        pb.environment().put("PATH", fakeBin + File.pathSeparator + System.getenv("PATH"));
        long t0 = System.nanoTime();
        Process child = pb.start();
        assertThat(child.waitFor(120, TimeUnit.SECONDS)).as("child finished").isTrue();
        String out = Files.readString(work.resolve("child.log"), StandardCharsets.UTF_8);
        System.out.printf("[EmbeddedPostgresSourceIT] root fallback child JVM %d ms:%n%s%n",
                (System.nanoTime() - t0) / 1_000_000, out);
        assertThat(child.exitValue()).as(out).isZero();
        Map<String, String> kv = new HashMap<>();
        out.lines().filter(l -> l.matches("[A-Z_]+=.*")).forEach(l -> kv.put(l.substring(0, l.indexOf('=')),
                l.substring(l.indexOf('=') + 1)));
        assertThat(kv).containsEntry("OWNER", root ? "UNPRIVILEGED_USER" : "CURRENT_USER").containsEntry("WAL", "logical")
                .containsEntry("ROWS", "1");
        assertThat(Long.parseLong(kv.get("DATA_UID"))).isNotZero();
        assertThat(out).contains("OK");

        // same data directory, this JVM (user namespaces work here): files are re-owned, data is there
        if (RootPostgres.decideOwner() == EmbeddedPostgresSource.ProcessOwner.ROOT_IN_USER_NAMESPACE) {
            long t1 = System.nanoTime();
            try (EmbeddedPostgresSource pg = EmbeddedPostgresSource.start(pgDir);
                 Connection c = pg.connection(); Statement s = c.createStatement()) {
                System.out.printf("[EmbeddedPostgresSourceIT] same dir in user-namespace mode %d ms%n",
                        (System.nanoTime() - t1) / 1_000_000);
                assertThat(single(s, "select note from selfcheck where id = 1")).isEqualTo("kept");
            }
        }
    }

    private static String single(Statement s, String sql) throws Exception {
        try (ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getString(1);
        }
    }
}

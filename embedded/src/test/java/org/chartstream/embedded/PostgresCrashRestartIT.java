package org.chartstream.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The embedded PostgreSQL after {@code kill -9} of the JVM that started it: the watchdog stops the server within
 * seconds; and where the watchdog is killed too, the next start finds the server left on the data directory by its
 * {@code postmaster.pid}, stops it and starts cleanly, with the data kept; a server whose JVM still runs is left alone.
 */
class PostgresCrashRestartIT {
    private final Path dir = Path.of("target", "it", "PostgresCrashRestartIT-" + System.nanoTime()).toAbsolutePath();
    private Process child;

    @AfterEach
    void cleanUp() throws Exception {
        if (child != null && child.isAlive()) {
            child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        postmasterPid().flatMap(ProcessHandle::of).ifPresent(ProcessHandle::destroyForcibly);
    }

    @Test
    void theServerDiesWithAKilledJvm() throws Exception {
        startChild();
        long postmaster = postmasterPid().orElseThrow();
        assertThat(LiveProcess.running(postmaster)).isTrue();

        long t0 = System.nanoTime();
        child.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        assertThat(awaitGone(postmaster, 30)).as("postmaster %d stopped after the JVM was killed", postmaster).isTrue();
        System.out.printf("[PostgresCrashRestartIT] postmaster gone %.1f s after kill -9 of its JVM%n", (System.nanoTime() - t0) / 1e9);
        assertThat(dir.resolve("data").resolve("postmaster.pid")).as("a fast shutdown removes its lock file").doesNotExist();
        try (EmbeddedPostgresSource again = EmbeddedPostgresSource.start(dir)) {
            assertThat(count(again)).isEqualTo(2);
        }
    }

    @Test
    void aServerLeftRunningByAKilledRunIsStoppedBeforeTheNextStart() throws Exception {
        startChild();
        long postmaster = postmasterPid().orElseThrow();
        List<ProcessHandle> watchdogs = child.descendants()
                .filter(p -> p.info().arguments().map(a -> List.of(a).contains(PostmasterWatchdog.NAME)).orElse(false)).toList();
        assertThat(watchdogs).as("the JVM's watchdog child").hasSize(1);
        watchdogs.forEach(ProcessHandle::destroyForcibly);
        child.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        Thread.sleep(2000);
        assertThat(LiveProcess.running(postmaster)).as("without its watchdog the server outlives the JVM").isTrue();

        long t0 = System.nanoTime();
        try (EmbeddedPostgresSource again = EmbeddedPostgresSource.start(dir)) {
            System.out.printf("[PostgresCrashRestartIT] started over a left server in %.1f s%n", (System.nanoTime() - t0) / 1e9);
            assertThat(LiveProcess.running(postmaster)).as("the left server was stopped").isFalse();
            assertThat(postmasterPid()).isPresent().get().isNotEqualTo(postmaster);
            assertThat(count(again)).isEqualTo(2);
        }
    }

    @Test
    void aServerWhoseJvmStillRunsIsNeverStopped() throws Exception {
        startChild();
        long postmaster = postmasterPid().orElseThrow();
        assertThatThrownBy(() -> EmbeddedPostgresSource.start(dir).close()).isInstanceOf(java.io.IOException.class)
                .hasMessageContaining("PostgreSQL (pid " + postmaster + ")").hasMessageContaining("still running");
        assertThat(LiveProcess.running(postmaster)).as("the other JVM's server still runs").isTrue();
        assertThat(child.isAlive()).isTrue();
    }

    private void startChild() throws Exception {
        Files.createDirectories(dir);
        child = new ProcessBuilder(ChildJvmClassPath.javaCommand(List.of(), PostgresChild.class.getName(), dir.toString())).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolveSibling(dir.getFileName() + ".log").toFile())).start();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (!Files.exists(dir.resolve("child.ready"))) {
            assertThat(child.isAlive()).as("child JVM running (see its log)").isTrue();
            assertThat(System.nanoTime()).as("child ready within 3 min").isLessThan(deadline);
            Thread.sleep(100);
        }
        int port = Integer.parseInt(Files.readString(dir.resolve("child.ready")).trim());
        try (Connection c = java.sql.DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres");
             Statement s = c.createStatement()) {
            s.execute("create table if not exists kept(id int primary key)");
            s.execute("insert into kept values (1), (2) on conflict do nothing");
        }
    }

    private java.util.Optional<Long> postmasterPid() {
        try {
            return StalePostmaster.pid(Files.readAllLines(dir.resolve("data").resolve("postmaster.pid"), StandardCharsets.US_ASCII));
        } catch (java.io.IOException e) {
            return java.util.Optional.empty();
        }
    }

    private static boolean awaitGone(long pid, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (LiveProcess.running(pid)) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(50);
        }
        return true;
    }

    private static int count(EmbeddedPostgresSource pg) throws Exception {
        try (Connection c = pg.connection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("select count(*) from kept")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}

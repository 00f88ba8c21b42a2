package org.chartstream.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StalePostmasterTest {
    private static final Path DATA = Path.of("/srv/chartstream/run/postgres/data");
    private static final List<String> PID_FILE = List.of("4711", DATA.toString(), "1764580000", "54321", "/tmp", "127.0.0.1", "  1234  5", "ready");

    private static StalePostmaster.ProcessView postgres(Path cwd, String... args) {
        return new StalePostmaster.ProcessView(true, List.of(args), Optional.ofNullable(cwd));
    }

    @Test
    void aPostgresWorkingInThisDataDirectoryIsStopped() {
        assertThat(StalePostmaster.decide(DATA, PID_FILE, postgres(DATA, "/opt/pg/bin/postgres", "-D", DATA.toString(), "-p", "54321")))
                .isEqualTo(new StalePostmaster.Verdict.Stop(4711));
    }

    @Test
    void withoutAReadableWorkingDirectoryTheDashDArgumentDecides() {
        assertThat(StalePostmaster.decide(DATA, PID_FILE, postgres(null, "/opt/pg/bin/postgres", "-D", DATA.toString())))
                .isEqualTo(new StalePostmaster.Verdict.Stop(4711));
        assertThat(StalePostmaster.decide(DATA, PID_FILE, postgres(null, "/opt/pg/bin/postgres", "-D", "/elsewhere")))
                .isInstanceOf(StalePostmaster.Verdict.Leave.class);
    }

    @Test
    void aReusedPidIsLeftAlone() {
        assertThat(StalePostmaster.decide(DATA, PID_FILE, postgres(Path.of("/home/u"), "/usr/bin/java", "-jar", "x.jar")))
                .isEqualTo(new StalePostmaster.Verdict.Leave("pid 4711 is not a postgres"));
        assertThat(StalePostmaster.decide(DATA, PID_FILE, postgres(Path.of("/var/lib/postgresql/15/main"), "/usr/lib/postgresql/15/bin/postgres")))
                .isEqualTo(new StalePostmaster.Verdict.Leave("pid 4711 serves another data directory"));
    }

    @Test
    void aDeadServerAnEmptyOrForeignLockFileAreLeftToPostgres() {
        assertThat(StalePostmaster.decide(DATA, PID_FILE, StalePostmaster.ProcessView.GONE)).isInstanceOf(StalePostmaster.Verdict.Leave.class);
        assertThat(StalePostmaster.decide(DATA, List.of(), StalePostmaster.ProcessView.GONE)).isInstanceOf(StalePostmaster.Verdict.Leave.class);
        assertThat(StalePostmaster.decide(DATA, List.of("4711", "/other/data"), postgres(DATA, "postgres")))
                .isEqualTo(new StalePostmaster.Verdict.Leave("postmaster.pid names another data directory"));
        assertThat(StalePostmaster.pid(List.of("x"))).isEmpty();
        assertThat(StalePostmaster.pid(List.of("-3"))).isEmpty();
    }

    @Test
    void thisJvmIsSeenAsAliveAndNotAPostgres() {
        StalePostmaster.ProcessView self = StalePostmaster.view(ProcessHandle.current().pid());
        assertThat(self.alive()).isTrue();
        assertThat(self.commandLine().get(0)).endsWith("java");
    }
}

package org.chartstream.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StartedPartsTest {
    private final List<String> log = new ArrayList<>();
    private final List<String> stopped = new ArrayList<>();
    private final StartedParts parts = new StartedParts(log::add);

    @Test
    void stopsTheLastStartedFirstOnceAndSaysItStoppedCleanlyWithItsDuration() {
        parts.add(() -> stopped.add("broker"));
        parts.add(() -> stopped.add("streams"));
        parts.add(() -> stopped.add("capture"));

        assertThat(parts.stopLogged("pipeline")).isTrue();
        assertThat(parts.stopLogged("pipeline")).as("a second stop returns the first outcome").isTrue();

        assertThat(stopped).containsExactly("capture", "streams", "broker");
        assertThat(log).hasSize(2);
        assertThat(log.get(0)).isEqualTo("stopping the pipeline");
        assertThat(log.get(1)).matches("pipeline stopped cleanly in \\d+ ms");
    }

    @Test
    void aPartThatFailsToStopIsNamedTheOthersStillStopAndTheStopIsNotClean() {
        parts.add(() -> stopped.add("broker"));
        parts.add(() -> {
            throw new IllegalStateException("chartstream-ingest did not close within 30 s");
        });
        parts.add(() -> stopped.add("capture"));

        assertThat(parts.stopLogged("pipeline")).isFalse();

        assertThat(stopped).containsExactly("capture", "broker");
        assertThat(log).containsSubsequence("while stopping: IllegalStateException: chartstream-ingest did not close within 30 s");
        assertThat(log.get(log.size() - 1)).matches("pipeline stopped in \\d+ ms, not cleanly \\(see above\\)");
    }

    @Test
    void aStopOnAnInterruptedThreadStillWaitsForEachPartAndKeepsTheInterrupt() {
        parts.add(() -> {
            Thread.sleep(20); // a part that waits for its threads, as a Streams client's close does
            stopped.add("streams");
        });
        Thread.currentThread().interrupt();
        try {
            assertThat(parts.stopLogged("pipeline")).isTrue();
            assertThat(stopped).containsExactly("streams");
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }
}

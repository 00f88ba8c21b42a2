package org.chartstream.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ServerSocket;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PipelineProbeTest {
    @Test
    void aDeadAddressFailsWithinFiveSecondsNamingIt() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort(); // closed again: nothing listens there
        }
        String address = "127.0.0.1:" + port;
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> PipelineProbe.require(address, Map.of(), "from some/runtime.properties", "chartstream-query"))
                .isInstanceOf(PipelineProbe.NoPipelineException.class)
                .hasMessageStartingWith("no pipeline answers at " + address + " (from some/runtime.properties)");
        assertThat((System.nanoTime() - t0) / 1e9).isLessThan(5.0);
    }

    @Test
    void anAddressThatAcceptsButNeverSpeaksKafkaGetsTheWholeTimeoutThenFailsNamingIt() throws Exception {
        try (ServerSocket silent = new ServerSocket(0)) {
            String address = "127.0.0.1:" + silent.getLocalPort();
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> PipelineProbe.require(address, Map.of(), "", null))
                    .hasMessageStartingWith("no pipeline answers at " + address + ": no Kafka broker there responded within 15 s");
            double seconds = (System.nanoTime() - t0) / 1e9;
            assertThat(seconds).isGreaterThan(PipelineProbe.TIMEOUT.toSeconds() - 1.0).isLessThan(PipelineProbe.TIMEOUT.toSeconds() + 5.0);
        }
    }

    @Test
    void listeningIsJudgedPerAddressOfTheList() throws Exception {
        int dead;
        try (ServerSocket s = new ServerSocket(0)) {
            dead = s.getLocalPort();
        }
        try (ServerSocket live = new ServerSocket(0)) {
            assertThat(PipelineProbe.anyListens("127.0.0.1:" + dead)).isFalse();
            assertThat(PipelineProbe.anyListens("127.0.0.1:" + dead + ", 127.0.0.1:" + live.getLocalPort())).isTrue();
            assertThat(PipelineProbe.anyListens("PLAINTEXT://127.0.0.1:" + live.getLocalPort())).isTrue();
            assertThat(PipelineProbe.anyListens("not-an-address")).as("left to Kafka's client").isTrue();
        }
    }
}

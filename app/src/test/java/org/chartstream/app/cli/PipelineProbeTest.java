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
    void anAddressThatAcceptsButNeverSpeaksKafkaFailsWithinFiveSecondsToo() throws Exception {
        try (ServerSocket silent = new ServerSocket(0)) {
            String address = "127.0.0.1:" + silent.getLocalPort();
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> PipelineProbe.require(address, Map.of(), "", null))
                    .hasMessageStartingWith("no pipeline answers at " + address + ":");
            assertThat((System.nanoTime() - t0) / 1e9).isLessThan(5.0);
        }
    }
}

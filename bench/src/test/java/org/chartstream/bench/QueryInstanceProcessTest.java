package org.chartstream.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QueryInstanceProcessTest {
    @TempDir
    Path dir;

    @Test
    void startsRunRoleQueryOnItsOwnConfigurationFileAndCountsTheRequestsItsLogSaysItResumed() throws Exception {
        Map<String, String> configuration = new LinkedHashMap<>();
        configuration.put("data.dir", dir.resolve("query-1").toString());
        configuration.put("ops.http.port", "1");
        Path file = dir.resolve("query-1").resolve("chartstream.properties");
        List<List<String>> asked = new ArrayList<>();
        // a stand-in for the child JVM: prints what a query instance logs when its tasks take requests over
        QueryInstanceProcess.Launcher launcher = arguments -> {
            asked.add(arguments);
            return List.of("/bin/sh", "-c", "echo 'resuming 2 requests that were pending before a restart';"
                    + " echo 'resuming 1 requests that were pending before a restart'");
        };

        QueryInstanceProcess instance = QueryInstanceProcess.start(launcher, "query-1", configuration, file, dir.resolve("query-1.log"));
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (instance.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }

        assertThat(asked).containsExactly(List.of("run", "--role", "query", "--config", file.toString()));
        assertThat(Files.readAllLines(file)).containsExactly("data.dir=" + dir.resolve("query-1"), "ops.http.port=1");
        assertThat(instance.resumedFromPending()).isEqualTo(3);
        assertThat(instance.ready()).as("nothing answers on its port").isFalse();
        assertThat(instance.inFlight()).isEqualTo(-1);
        assertThat(instance.oldestInFlightMs()).isEqualTo(-1);
    }
}

package org.chartstream.app.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.chartstream.app.Main;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class IngestBenchCommandTest {

    @Test
    void anUnknownDatasetIsRefusedNamingTheKnownOnesBeforeAnythingStarts() {
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new Main()).setErr(new PrintWriter(err))
                .setExecutionExceptionHandler(Main.ERROR_HANDLER);

        int code = cli.execute("bench", "ingest", "--dataset", "mimic-iv-full", "--json");

        assertThat(code).isEqualTo(1);
        assertThat(err.toString()).contains("--dataset 'mimic-iv-full' is not a dataset")
                .contains("synthetic").contains("mimic-iv-demo");
    }
}

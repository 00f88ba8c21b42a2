package org.chartstream.app.cli;

import java.io.IOException;
import java.time.Instant;
import org.chartstream.app.audit.TimeWindow;
import org.chartstream.runtime.config.ChartstreamConfig;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/** The options `replay` and `audit` share: the time window of the records to read and the broker to read them from. */
final class WindowOptions {
    @Option(names = "--from", required = true, paramLabel = "T",
            description = "window start: ISO-8601 instant (2026-11-30T18:00:00Z) or a duration back from now (-1h, -15m, -2d)")
    String from;

    @Option(names = "--to", paramLabel = "T", description = "window end, same forms as --from (default: now)")
    String to;

    @Option(names = "--bootstrap", description = "Kafka bootstrap servers (default: kafka.bootstrap, else the running pipeline's)")
    String bootstrap;

    /** The window; a bad value is a usage error naming the option. */
    TimeWindow window(CommandLine.Model.CommandSpec spec) {
        try {
            return TimeWindow.parse(from, to, Instant.now());
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    /**
     * --bootstrap, else kafka.bootstrap, else the broker of the pipeline running under the data directory; a broker
     * that does not answer within a few seconds is an error naming the address.
     */
    String bootstrapServers(ChartstreamConfig config) throws IOException {
        String configured = bootstrap != null ? bootstrap : config.string("kafka.bootstrap");
        return RunCommand.reachableBootstrap(config, configured.isEmpty() ? null : configured, null);
    }
}

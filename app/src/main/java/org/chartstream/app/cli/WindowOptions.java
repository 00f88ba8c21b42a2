package org.chartstream.app.cli;

import java.io.IOException;
import java.time.Instant;
import org.chartstream.app.Main;
import org.chartstream.app.audit.TimeWindow;
import org.chartstream.runtime.config.ChartstreamConfig;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The options `replay` and `audit` share: the time window of the records to read and the broker to read them from;
 * also what both need of the command they are mixed into (its configuration, its usage errors).
 */
final class WindowOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    @Option(names = "--from", required = true, paramLabel = "T",
            description = "window start: ISO-8601 instant (2026-11-30T18:00:00Z) or a duration back from now (-1h, -15m, -2d)")
    String from;

    @Option(names = "--to", paramLabel = "T", description = "window end, same forms as --from (default: now)")
    String to;

    @Option(names = "--bootstrap", description = "Kafka bootstrap servers (default: kafka.bootstrap, else the running pipeline's)")
    String bootstrap;

    /** The configuration {@code Main} loaded (file, environment, {@code -D} options). */
    ChartstreamConfig config() {
        return ((Main) command.root().userObject()).config();
    }

    /** The window; a bad value is a usage error naming the option. */
    TimeWindow window() {
        try {
            return TimeWindow.parse(from, to, Instant.now());
        } catch (IllegalArgumentException e) {
            throw usageError(e.getMessage());
        }
    }

    /** A usage error of the command: picocli prints the message and the usage and exits with 2. */
    CommandLine.ParameterException usageError(String message) {
        return new CommandLine.ParameterException(command.commandLine(), message);
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

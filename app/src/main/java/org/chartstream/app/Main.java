package org.chartstream.app;

import java.nio.file.Files;
import java.nio.file.Path;
import org.chartstream.app.bench.BenchCommand;
import org.chartstream.app.cli.AskCommand;
import org.chartstream.app.cli.AuditCommand;
import org.chartstream.app.cli.BrokerCommand;
import org.chartstream.app.cli.ReplayCommand;
import org.chartstream.app.cli.SeedCommand;
import org.chartstream.app.cli.CalibrateCommand;
import org.chartstream.app.cli.EvalCommand;
import org.chartstream.app.cli.ReindexCommand;
import org.chartstream.app.cli.StatusCommand;
import org.chartstream.app.cli.DemoCommand;
import org.chartstream.app.cli.RunCommand;
import org.chartstream.app.cli.RunDataset;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.runtime.config.ConfigException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The {@code chartstream} command line. */
@Command(name = "chartstream", mixinStandardHelpOptions = true, version = "chartstream 0.1.0",
        description = {
                "On-premises, event-driven retrieval over health records on Kafka Streams.",
                "Debezium change streams keep a hybrid (vector + BM25) index fresh; questions posted on",
                "chartstream.requests get grounded, cited answers on their reply topic. Nothing leaves the machine.",
                "",
                "Configuration: defaults < properties file (--config, $CHARTSTREAM_CONFIG or ./chartstream.properties)",
                "< environment (CHARTSTREAM_<KEY>, e.g. CHARTSTREAM_QUERY_TOP_K=4). `chartstream config` lists every key."},
        subcommands = {DemoCommand.class, RunCommand.class, BrokerCommand.class, AskCommand.class, StatusCommand.class, ReindexCommand.class,
                EvalCommand.class, CalibrateCommand.class, BenchCommand.class, ReplayCommand.class, AuditCommand.class, SeedCommand.class, Main.ConfigCommand.class, CommandLine.HelpCommand.class})
public final class Main implements Runnable {
    @Option(names = "--config", paramLabel = "FILE", description = "properties file with configuration keys", scope = CommandLine.ScopeType.INHERIT)
    Path configFile;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** A command's failure as one line on stderr (no stack trace), exit code 1. */
    public static final CommandLine.IExecutionExceptionHandler ERROR_HANDLER = (e, cmd, parsed) -> {
        cmd.getErr().println("chartstream: " + (e instanceof ConfigException ? "" : e.getClass().getSimpleName() + ": ") + e.getMessage());
        return 1;
    };

    public static void main(String[] args) {
        java.util.Optional<java.util.List<String>> relaunch = TelemetrySwitch.relaunchCommand(System.getenv(),
                System.getProperty("java.home"), TelemetrySwitch.currentJvmOptions(), System.getProperty("java.class.path"), args);
        if (relaunch.isPresent()) {
            System.exit(TelemetrySwitch.run(relaunch.get()));
        }
        org.slf4j.bridge.SLF4JBridgeHandler.removeHandlersForRootLogger();
        org.slf4j.bridge.SLF4JBridgeHandler.install();
        CommandLine cli = new CommandLine(new Main());
        cli.setExecutionExceptionHandler(ERROR_HANDLER);
        int code = cli.execute(args);
        System.exit(code);
    }

    /** The effective configuration: file then environment over the defaults. */
    public ChartstreamConfig config() {
        Path file = configFile;
        if (file == null && System.getenv("CHARTSTREAM_CONFIG") != null) {
            file = Path.of(System.getenv("CHARTSTREAM_CONFIG"));
        }
        if (file == null && Files.exists(Path.of("chartstream.properties"))) {
            file = Path.of("chartstream.properties");
        }
        if (file != null && !Files.exists(file)) {
            throw new ConfigException("configuration file " + file + " does not exist");
        }
        return ChartstreamConfig.load(file, System.getenv());
    }

    /**
     * The configuration of the pipeline {@code run} keeps under the data directory: {@link #config()} over the
     * configuration of the dataset that run loaded, for the commands that address it (status, reindex).
     */
    public ChartstreamConfig runConfig() {
        return RunDataset.withRecordedDataset(config());
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    @Command(name = "config", mixinStandardHelpOptions = true, description = "Print every configuration key with its effective value and where it came from.")
    static final class ConfigCommand implements Runnable {
        @CommandLine.ParentCommand
        Main main;

        @Override
        public void run() {
            ChartstreamConfig c = main.config();
            c.describe().forEach((k, v) -> System.out.printf("%-30s %s%n    %s  [env %s]%n", k, v,
                    ChartstreamConfig.KEYS.get(k)[1], ChartstreamConfig.envName(k)));
        }
    }
}

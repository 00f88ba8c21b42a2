package org.chartstream.app.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.chartstream.embedded.EmbeddedKafkaBroker;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The embedded single-node KRaft broker on its own, for split roles on one machine ({@code run --role ingest} and
 * {@code run --role query} processes sharing it through {@code kafka.bootstrap}) and for {@code bench scaleout}, which
 * runs its broker in a JVM of its own so that the broker's JVM options are chosen apart from the bench's.
 */
@Command(name = "broker", mixinStandardHelpOptions = true, description = {
        "Run the embedded single-node Kafka broker (KRaft) until stopped.",
        "Prints `bootstrap=<host:port>` on stdout once clients can connect; point kafka.bootstrap "
                + "(CHARTSTREAM_KAFKA_BOOTSTRAP) of `run --role ingest|query` processes at it. SIGTERM or Ctrl-C stops it "
                + "cleanly. For development and benchmarks on one machine: a site runs a Kafka cluster (docs/SCALING.md).", ""})
public final class BrokerCommand implements Callable<Integer> {
    @Option(names = "--dir", paramLabel = "DIR", required = true, description = "log and metadata directory (formatted on first use, kept across runs)")
    Path dir;

    @Option(names = "--port", paramLabel = "PORT", description = "client port (default: ${DEFAULT-VALUE}, a free port)", defaultValue = "0")
    int port;

    @Option(names = "--partitions", paramLabel = "N", description = "partitions of auto-created topics (default: ${DEFAULT-VALUE})", defaultValue = "1")
    int partitions;

    @Override
    public Integer call() throws Exception {
        if (port < 0 || port > 65535 || partitions < 1) {
            System.err.println("--port must be 0..65535 and --partitions at least 1");
            return 2;
        }
        CountDownLatch stop = new CountDownLatch(1);
        Thread hook = new Thread(stop::countDown, "broker-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        serve(dir, port, partitions, System.out, stop);
        return 0;
    }

    /** Starts the broker, prints its address on {@code out}, and closes it once {@code stop} is counted down. */
    static void serve(Path dir, int port, int partitions, PrintStream out, CountDownLatch stop) throws Exception {
        EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker().numPartitions(partitions);
        if (port > 0) {
            broker.brokerPort(port);
        }
        try (EmbeddedKafkaBroker running = broker.start(dir)) {
            out.println(EmbeddedKafkaBroker.BOOTSTRAP_LINE_PREFIX + running.bootstrapServers());
            out.flush();
            RunCommand.progress("broker listening on " + running.bootstrapServers() + " (data in " + running.dataDir() + "); SIGTERM or Ctrl-C stops it");
            stop.await();
        }
    }
}

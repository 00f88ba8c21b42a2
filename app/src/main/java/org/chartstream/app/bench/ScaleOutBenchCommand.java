package org.chartstream.app.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.chartstream.app.Main;
import org.chartstream.app.pipeline.EmbeddingReport;
import org.chartstream.app.pipeline.IngestStatusReader;
import org.chartstream.bench.IngestScaleOut;
import org.chartstream.bench.PipelineBenchRuntime;
import org.chartstream.bench.QueryInstanceProcess;
import org.chartstream.bench.ScaleOutLoad;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code chartstream bench scaleout}: ingest instances sharing the embedding; query instances sharing the request topic, one killed mid-load. */
@Command(name = "scaleout", mixinStandardHelpOptions = true, description = {
        "Ingest: the synthetic dataset (--ingest-patients) is snapshotted by one `chartstream run",
        "--role ingest` and then by --instances of them (JVMs of their own, the embedding model on one",
        "ONNX thread each, the first capturing, the others ingest.capture=false), each run on a fresh",
        "embedded broker and PostgreSQL, with --ingest-partitions index-log and repartition partitions.",
        "chunks_per_s: the snapshot's chunks over the time from the first row event on the index log to",
        "the last marker; ratio: against the single instance of the same run; index_equals_source:",
        "every source row on the index log after both runs, with the same chunk texts in both;",
        "cpu_s, single_cpu_s: CPU seconds in that window per instance and of this JVM (\"bench\": the",
        "broker and the reader), in all and on the JIT compiler and GC threads; jvm_options: what",
        "--ingest-jvm-options gave each ingest instance.",
        "Query: starts the embedded broker and an ingest runtime (embedded PostgreSQL with the",
        "synthetic dataset) in this JVM and --instances query instances, each",
        "`chartstream run --role query` in a JVM of its own with its own state and Lucene",
        "replica, on a request topic of --partitions partitions. Once all are ready,",
        "--clients clients each post --conversations conversations of --turns turns",
        "(the turns of a conversation all at once) and wait for their final replies;",
        "when --kill-after of the requests are answered, the last instance is killed",
        "with SIGKILL once it has had requests in flight for a commit interval;",
        "in_flight_at_kill: what it had then (0: the clients were done first, and the",
        "run tests no failover). The instances commit every 100 ms (the default is 1000),",
        "so that a request in flight is soon in the committed pending store.",
        "Every reply event is counted:",
        "requests, answered (a final reply), lost (none within --timeout-s), duplicates",
        "(more than one final reply), conflicting_duplicates (final replies that differ",
        "in type, text or cited rows), conversations_out_of_order, resumed_from_pending",
        "(requests the survivor took over from the pending store), p50_ms/p99_ms (sent to",
        "first final reply), rps before and after the kill. Admission is fixed at 64 in",
        "flight (bench load measures admission). Last stdout line with --json:",
        "{\"query\":{\"instances\":…, \"killed\":1, \"in_flight_at_kill\":…, \"requests\":…, \"answered\":…, \"lost\":…,",
        "\"duplicates\":…, \"conflicting_duplicates\":…, \"p99_ms\":…, …}, \"ingest\":{\"instances\":…,",
        "\"chunks_per_s\":…, \"single_chunks_per_s\":…, \"ratio\":…, \"index_equals_source\":…, …}}"})
public final class ScaleOutBenchCommand extends BenchSubcommand {
    /**
     * The query instances' commit interval: the kill waits for a request admitted two commit intervals and 300 ms before
     * (so that it is in the committed pending store), and at the default 1000 ms no request lived that long on a fast
     * machine, so the kill came after the load and tested no failover (QueryScaleOutIT uses the same 100 ms).
     */
    static final long COMMIT_INTERVAL_MS = 100;

    @Option(names = "--instances", description = "query instances (default: ${DEFAULT-VALUE})", defaultValue = "2")
    int instances;

    @Option(names = "--partitions", description = "partitions of the request topic (default: ${DEFAULT-VALUE})", defaultValue = "4")
    int partitions;

    @Option(names = "--patients", description = "synthetic patients in the source (default: ${DEFAULT-VALUE})", defaultValue = "10")
    int patients;

    @Option(names = "--clients", description = "clients posting at the same time (default: ${DEFAULT-VALUE})", defaultValue = "48")
    int clients;

    @Option(names = "--conversations", description = "conversations per client (default: ${DEFAULT-VALUE})", defaultValue = "2")
    int conversations;

    @Option(names = "--turns", description = "turns per conversation, posted at once (default: ${DEFAULT-VALUE})", defaultValue = "3")
    int turns;

    @Option(names = "--kill-after", description = "share of the requests answered before the kill (default: ${DEFAULT-VALUE})",
            defaultValue = "0.3")
    double killAfter;

    @Option(names = "--timeout-s", description = "seconds a conversation's final replies may take before the missing ones are lost"
            + " (default: ${DEFAULT-VALUE})", defaultValue = "120")
    int timeoutSeconds;

    @Option(names = "--ingest-patients", description = "synthetic patients of the ingest part (default: ${DEFAULT-VALUE}: a"
            + " snapshot of about 9,900 chunks, under two minutes for one instance on an AVX-512 machine, so that each JVM's"
            + " one-time start-up and JIT compilation and the snapshot's start are a small part of the measured window;"
            + " docs/SCALING.md has the ratios at 200 and 400)", defaultValue = "400")
    int ingestPatients;

    @Option(names = "--ingest-partitions", description = "index-log and ingest repartition partitions of the ingest part"
            + " (default: ${DEFAULT-VALUE})", defaultValue = "2")
    int ingestPartitions;

    @Option(names = "--ingest-jvm-options", description = "JVM options of each ingest instance, both runs alike (default:"
            + " ${DEFAULT-VALUE}: C1 only, as docs/SCALING.md recommends for an ingest-only process sharing its cores with the"
            + " model; \"\" for the JVM's default)", defaultValue = "-XX:TieredStopAtLevel=1")
    String ingestJvmOptions;

    @Option(names = "--broker-jvm-options", description = "JVM options of the ingest part's broker, a `chartstream broker` JVM of"
            + " its own (default: ${DEFAULT-VALUE}: C1 only, so that a broker that lives for one run does not spend the cores the"
            + " instances share on C2 compilation inside the window; \"\" for the JVM's default)", defaultValue = "-XX:TieredStopAtLevel=1")
    String brokerJvmOptions;

    @Option(names = "--part", description = "ingest, query or both (default: ${DEFAULT-VALUE})", defaultValue = "both")
    String part;

    @Option(names = "--json", description = "print the figures as one JSON line")
    boolean json;

    @Override
    public Integer call() throws Exception {
        if (instances < 2 || partitions < instances || patients < 1 || clients < 1 || conversations < 1 || turns < 1
                || killAfter <= 0 || killAfter >= 1 || timeoutSeconds < 1 || ingestPatients < 1 || ingestPartitions < instances
                || !List.of("ingest", "query", "both").contains(part)) {
            spec.commandLine().getErr().println("--instances must be at least 2, --partitions and --ingest-partitions at least --instances,"
                    + " --kill-after between 0 and 1 (exclusive), --part ingest, query or both, every other count at least 1");
            return 2;
        }
        var config = config();
        Path work = config.dataDir().resolve("bench-scaleout");
        PipelineBenchRuntime.deleteRecursively(work);
        List<String> parts = new ArrayList<>();
        if (!part.equals("query")) {
            List<String> jvmOptions = options(ingestJvmOptions);
            List<String> brokerOptions = options(brokerJvmOptions);
            IngestScaleOut.Launchers launchers = new IngestScaleOut.Launchers(childJvm(jvmOptions), jvmOptions, childJvm(brokerOptions),
                    brokerOptions);
            IngestScaleOut.Result ingest = IngestScaleOut.run(config, PipelineBenchRuntime.dataset(config, ingestPatients), instances,
                    ingestPartitions, launchers, ScaleOutBenchCommand::embeddedChunks, work.resolve("ingest"), PipelineBenchRuntime::progress);
            parts.add("\"ingest\":" + ingest.json());
        }
        if (!part.equals("ingest")) {
            ScaleOutLoad.Settings settings = new ScaleOutLoad.Settings(instances, partitions, patients, clients, conversations, turns,
                    killAfter, Duration.ofSeconds(timeoutSeconds), Map.of("query.admission-limit", "64", "query.admission-min-limit", "64",
                    "query.commit-interval-ms", Long.toString(COMMIT_INTERVAL_MS)));
            ScaleOutLoad.Result result = ScaleOutLoad.run(config, settings, childJvm(List.of()), work.resolve("query"), PipelineBenchRuntime::progress);
            parts.add("\"query\":" + result.queryJson());
        }
        if (json) {
            System.out.println("{" + String.join(", ", parts) + "}");
        } else {
            parts.forEach(System.out::println);
        }
        return 0;
    }

    private static Map<String, Long> embeddedChunks(String bootstrapServers) {
        try (IngestStatusReader status = new IngestStatusReader(bootstrapServers)) {
            return EmbeddingReport.chunksPerInstance(status.latestEmbedProgress(Duration.ofSeconds(10)));
        }
    }

    private static List<String> options(String text) {
        return text.isBlank() ? List.of() : List.of(text.trim().split("\\s+"));
    }

    /**
     * A JVM like this one (its java, this class path: the app jar whose manifest carries the rest) running the
     * {@code chartstream} main class, with the query topology's per-task lines (ids and counts) in its log, and
     * {@code jvmOptions} before the class path.
     */
    static QueryInstanceProcess.Launcher childJvm(List<String> jvmOptions) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = System.getProperty("java.class.path");
        return arguments -> {
            List<String> command = new ArrayList<>(List.of(java, "-Xmx1g"));
            command.addAll(jvmOptions);
            command.addAll(List.of("--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED",
                    "-Dorg.slf4j.simpleLogger.log.org.chartstream.query=info", "-cp", classPath, Main.class.getName()));
            command.addAll(arguments);
            return command;
        };
    }
}

package org.chartstream.app.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.chartstream.app.Main;
import org.chartstream.app.ops.Operations;
import org.chartstream.runtime.PipelineRuntime;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.runtime.config.ConfigException;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/** Keeps the embedded pipeline running until interrupted; `ask` talks to it. */
@Command(name = "run", mixinStandardHelpOptions = true, description = {"Start the embedded pipeline (broker, PostgreSQL source with a dataset, Debezium,",
        "both topologies, Lucene index) under <data.dir>/run and keep it running until Ctrl-C.",
        "State persists: a second `run` resumes from Debezium offsets and the committed index.",
        "--role splits the pipeline over processes: `ingest` (CDC + ingest topology, writes chartstream.index) and "
                + "`query` (materializes chartstream.index into the store.kind store, query topology); both need kafka.bootstrap.",
        "Serves /metrics (Prometheus), /health and /ready on ops.http.host:ops.http.port (default 127.0.0.1:9464)."})
public final class RunCommand implements Callable<Integer> {
    @ParentCommand
    Main main;

    @picocli.CommandLine.Option(names = "--role", paramLabel = "ROLE", defaultValue = "all",
            description = "all | ingest | query: what this process runs (default: ${DEFAULT-VALUE})")
    String role;

    @picocli.CommandLine.Option(names = "--dataset", paramLabel = "NAME",
            description = {"what the embedded PostgreSQL source is filled with when it is created (default: the dataset",
                    "the data directory holds, else synthetic):",
                    "synthetic: generated patients (Synthea, with aci-bench notes; dataset.patients, dataset.seed);",
                    "mimic-iv-demo: the MIMIC-IV Clinical Database Demo 2.2 shipped in data/mimic-iv-demo (100 real,",
                    "de-identified patients, ODbL), eleven tables with MIMIC's own types and keys, of which its",
                    "configuration indexes five. A dataset brings its source configuration (schema, tables, patient",
                    "columns); --config and CHARTSTREAM_* override any of its keys. A data directory holds one dataset, and",
                    "status and reindex on that data directory read the dataset's configuration too."})
    String dataset;

    @Override
    public Integer call() throws Exception {
        RunDataset source = RunDataset.select(dataset, main.config());
        ChartstreamConfig config = source.config();
        Path dir = config.dataDir().resolve("run");
        long pid = ProcessHandle.current().pid();
        PipelineRuntime.Role runAs = role(role);
        if (runAs != PipelineRuntime.Role.ALL && config.string("kafka.bootstrap").isEmpty()) {
            throw new ConfigException("--role " + role + " needs a shared broker: set kafka.bootstrap (CHARTSTREAM_KAFKA_BOOTSTRAP)");
        }
        RuntimeFile.deleteIfWriterGone(config.dataDir()); // a killed run's file names a broker that died with it
        source.claim(dir);
        StopSignals stop = StopSignals.install(STOP_BOUND, RunCommand::progress);
        stop.interruptOnRequest(Thread.currentThread()); // a stop while starting ends the start; what started is stopped
        boolean clean;
        try (Operations ops = Operations.start(config, RunCommand::progress);
             PipelineRuntime runtime = PipelineRuntime.start(config, dir, source.loader(RunCommand::progress), RunCommand::progress, runAs)) {
            new RuntimeFile(runtime.bootstrapServers(), pid).write(config.dataDir());
            try {
                serve(runAs, ops, runtime);
                stop.awaitRequest();
            } catch (RuntimeException e) {
                if (!stop.requested()) {
                    throw e;
                }
                // asked to stop while waiting for the pipeline to become searchable
            }
            stop.stopping();
            clean = runtime.stop();
        } catch (RuntimeException e) {
            if (!stop.requested()) {
                throw e;
            }
            progress("stopped while starting (" + e.getMessage() + ")");
            clean = false;
        } finally {
            try {
                RuntimeFile.deleteIfWrittenBy(config.dataDir(), pid);
            } catch (IOException ignored) {
                // best effort: a stale file names a pid that is gone, and commands say so
            }
            stop.finished();
        }
        return clean ? 0 : 1;
    }

    /** Bound of a stop: the Streams clients' close bounds, Debezium's and PostgreSQL's stops, with room to spare. */
    static final Duration STOP_BOUND = Duration.ofSeconds(150);

    private static void serve(PipelineRuntime.Role runAs, Operations ops, PipelineRuntime runtime) {
        switch (runAs) {
            case ALL -> {
                ops.attach(runtime);
                runtime.awaitSearchable(Duration.ofMinutes(15));
            }
            case QUERY -> {
                ops.attach(runtime);
                runtime.awaitStoreReady(Duration.ofMinutes(30));
            }
            case INGEST -> {
                ops.attach(runtime);
                progress("ingest running: change data capture into " + org.chartstream.schemas.Topics.INDEX);
            }
        }
        progress("pipeline running; Kafka at " + runtime.bootstrapServers() + ". Ask with: ./chartstream ask \"...\"  (Ctrl-C stops)");
    }

    static PipelineRuntime.Role role(String name) {
        for (PipelineRuntime.Role r : PipelineRuntime.Role.values()) {
            if (r.name().equalsIgnoreCase(name)) {
                return r;
            }
        }
        throw new ConfigException("--role '" + name + "' must be all, ingest or query");
    }

    /** The broker of the pipeline running under {@code dataDir} (see {@link RuntimeFile}). */
    static String readBootstrap(Path dataDir) throws IOException {
        return RuntimeFile.runningBootstrap(dataDir);
    }

    /**
     * {@code explicit} (a --bootstrap option) or the running pipeline's broker, checked to answer within a few seconds
     * ({@link PipelineProbe}); with {@code consumerGroup}, the group must have members too.
     */
    static String reachableBootstrap(ChartstreamConfig config, String explicit, String consumerGroup) throws IOException {
        String servers = explicit != null ? explicit : readBootstrap(config.dataDir());
        PipelineProbe.require(servers, org.chartstream.runtime.config.TransportSecurity.kafkaClientProperties(config),
                explicit != null ? "" : "from " + RuntimeFile.path(config.dataDir()), consumerGroup);
        return servers;
    }

    static void progress(String line) {
        System.err.println("[chartstream] " + line);
    }
}

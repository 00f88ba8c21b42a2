package org.chartstream.app.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.chartstream.app.Main;
import org.chartstream.app.pipeline.EmbeddingReport;
import org.chartstream.app.pipeline.IngestStatusReader;
import org.chartstream.app.pipeline.StatusReport;
import org.chartstream.runtime.PipelineRuntime;
import org.chartstream.core.store.TableRef;
import org.chartstream.runtime.SourceRegistrations;
import org.chartstream.runtime.StoreStatus;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.runtime.config.TransportSecurity;
import org.chartstream.schemas.EmbeddingProgress;
import org.chartstream.schemas.IngestTableStatus;
import org.chartstream.schemas.Topics;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** Per table: the active generation, rows, chunks, model, last source position and lag of a running pipeline. */
@Command(name = "status", mixinStandardHelpOptions = true, description = {"Show, per registered table, what a running pipeline (`chartstream run`) serves:",
        "active generation and its rows (the store), chunks, model and last source position (the ingest side),",
        "change events not yet ingested, and index-log records not yet in the store."})
public final class StatusCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper();
    @ParentCommand
    Main main;

    @Option(names = "--bootstrap", description = "Kafka bootstrap servers of the pipeline")
    String bootstrap;

    @Option(names = "--json", description = "print one JSON object")
    boolean json;

    @Override
    public Integer call() throws Exception {
        ChartstreamConfig config = main.runConfig();
        String servers = RunCommand.reachableBootstrap(config, bootstrap, null);
        Map<String, String> topics = SourceRegistrations.changeTopics(config);
        // the indexed tables: a dictionary is captured (its change topic counts in the lag) but serves no rows of its own
        List<String> tables = SourceRegistrations.all(config).stream().flatMap(source -> SourceRegistrations
                .indexedTables(source).stream().map(t -> new TableRef(source.sourceId(), t).id())).toList();
        try (IngestStatusReader reader = new IngestStatusReader(servers, TransportSecurity.kafkaClientProperties(config))) {
            StoreStatus store = StatusReport.freshest(reader.latestStoreStatus(Duration.ofSeconds(10))).orElse(null);
            Map<String, Long> lag = reader.ingestLag(PipelineRuntime.INGEST_APPLICATION_ID, new HashSet<>(topics.values()));
            Long indexLag = store == null ? null : StatusReport.indexLag(reader.endOffsets(Topics.INDEX), store.committedPositions());
            Map<String, IngestTableStatus> ingest = reader.latestTableStatus(Duration.ofSeconds(10));
            List<StatusReport.Line> lines = StatusReport.lines(tables, topics, store, ingest, lag);
            Map<Integer, EmbeddingProgress> embedded = reader.latestEmbedProgress(Duration.ofSeconds(10));
            Map<Integer, Long> pending = reader.partitionLag(PipelineRuntime.INGEST_APPLICATION_ID, Topics.INGEST_EMBED);
            if (json) {
                ObjectNode root = (ObjectNode) JSON.readTree(StatusReport.json(lines, indexLag, tables, ingest, embedded));
                root.set("embedding", EmbeddingReport.json(embedded, pending));
                System.out.print(root + "\n");
            } else {
                System.out.print(StatusReport.text(lines, indexLag, System.currentTimeMillis())
                        + StatusReport.noticeText(StatusReport.notices(lines, ingest, embedded)) + EmbeddingReport.text(embedded, pending));
            }
        }
        return 0;
    }
}

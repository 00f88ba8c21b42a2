package org.chartstream.app.cli;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.chartstream.app.Main;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.runtime.config.TransportSecurity;
import org.chartstream.app.pipeline.IngestStatusReader;
import org.chartstream.app.pipeline.StatusReport;
import org.chartstream.ingest.status.TableStatus;
import org.chartstream.runtime.StoreStatus;
import org.chartstream.runtime.PipelineRuntime;
import org.chartstream.runtime.SourceRegistrations;
import org.chartstream.connectors.DebeziumConfigs;
import org.chartstream.connectors.SourceConnection;
import org.chartstream.connectors.SourceKind;
import org.chartstream.ingest.normalize.SourceRegistration;
import org.chartstream.schemas.Topics;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** Per table: the active generation, rows, chunks, model, last source position and lag of a running pipeline. */
@Command(name = "status", description = {"Show, per registered table, what a running pipeline (`chartstream run`) serves:",
        "active generation and its rows (the store), chunks, model and last source position (the ingest side),",
        "change events not yet ingested, and index-log records not yet in the store."})
public final class StatusCommand implements Callable<Integer> {
    @ParentCommand
    Main main;

    @Option(names = "--bootstrap", description = "Kafka bootstrap servers of the pipeline")
    String bootstrap;

    @Option(names = "--json", description = "print one JSON object")
    boolean json;

    @Override
    public Integer call() throws Exception {
        ChartstreamConfig config = main.config();
        String servers = RunCommand.reachableBootstrap(config, bootstrap, null);
        StoreStatus store = StoreStatus.read(config.dataDir().resolve("run")).orElse(null);
        List<String> tables = new ArrayList<>();
        Map<String, String> topics = changeTopics(config, tables);
        try (IngestStatusReader reader = new IngestStatusReader(servers, TransportSecurity.kafkaClientProperties(config))) {
            Map<String, Long> lag = reader.ingestLag(PipelineRuntime.INGEST_APPLICATION_ID, new HashSet<>(topics.values()));
            long indexLag = store == null ? -1 : StatusReport.indexLag(reader.endOffsets(Topics.INDEX), store.committedPositions());
            Map<String, TableStatus> ingest = reader.latestTableStatus(Duration.ofSeconds(10));
            List<StatusReport.Line> lines = StatusReport.lines(tables, topics, store, ingest, lag);
            System.out.print(json ? StatusReport.json(lines, indexLag, tables, ingest) + "\n"
                    : StatusReport.text(lines, indexLag, System.currentTimeMillis()) + StatusReport.noticeText(StatusReport.notices(tables, ingest)));
        }
        return 0;
    }

    /** {@code source:table} → its change topic, for every registered table; fills {@code tables} in order. */
    static Map<String, String> changeTopics(ChartstreamConfig config, List<String> tables) {
        Map<String, String> topics = new LinkedHashMap<>();
        for (SourceRegistration source : SourceRegistrations.all(config)) {
            List<String> names = config.sourceList(source.sourceId(), "tables");
            SourceConnection connection = SourceRegistrations.connection(config, source.sourceId()).orElse(
                    SourceConnection.of(source.sourceId(), SourceKind.POSTGRES, "127.0.0.1", 5432, "postgres", "postgres",
                            null, null, names));
            for (String table : names) {
                String key = source.sourceId() + ":" + table;
                tables.add(key);
                topics.put(key, DebeziumConfigs.topicFor(connection, source.topicPrefix(), table));
            }
        }
        return topics;
    }
}

package org.chartstream.app.cli;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.chartstream.app.Main;
import org.chartstream.app.pipeline.IngestControlClient;
import org.chartstream.app.pipeline.IngestStatusReader;
import org.chartstream.core.store.TableRef;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.runtime.config.ConfigException;
import org.chartstream.runtime.config.TransportSecurity;
import org.chartstream.schemas.IngestTableStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** Rebuilds one table of a running pipeline as a new generation and, with --wait, waits for the cutover. */
@Command(name = "reindex", mixinStandardHelpOptions = true, description = {"Rebuild one table's index as a new generation while changes keep flowing",
        "(they apply to the active and the new generation); readers switch to it at once when it is complete,",
        "and the superseded generation is removed."})
public final class ReindexCommand implements Callable<Integer> {
    @ParentCommand
    Main main;

    @Option(names = "--table", required = true, description = "the table to rebuild")
    String table;

    @Option(names = "--source", description = "the table's source id (default: the only registered source)")
    String source;

    @Option(names = "--bootstrap", description = "Kafka bootstrap servers of the pipeline")
    String bootstrap;

    @Option(names = "--wait", description = "wait until the new generation is published (default: ${DEFAULT-VALUE})", defaultValue = "true",
            negatable = true)
    boolean await;

    @Option(names = "--timeout", description = "seconds to wait for the cutover (default: ${DEFAULT-VALUE})", defaultValue = "600")
    int timeoutSeconds;

    @Override
    public Integer call() throws Exception {
        ChartstreamConfig config = main.runConfig();
        List<String> ids = config.sourceIds();
        String sourceId = source != null ? source : ids.size() == 1 ? ids.get(0) : null;
        if (sourceId == null || !ids.contains(sourceId)) {
            throw new ConfigException("name the table's source with --source (one of " + ids + ")");
        }
        if (!config.sourceList(sourceId, "tables").contains(table)) {
            throw new ConfigException("table " + table + " is not registered for source " + sourceId);
        }
        String servers = bootstrap != null ? bootstrap : RunCommand.readBootstrap(config.dataDir());
        TableRef request = new TableRef(sourceId, table);
        Map<String, String> security = TransportSecurity.kafkaClientProperties(config);
        try (IngestStatusReader reader = new IngestStatusReader(servers, security)) {
            IngestTableStatus before = reader.latestTableStatus(Duration.ofSeconds(10)).get(request.id());
            long activeBefore = before == null ? 0 : before.getActiveGeneration();
            IngestControlClient.requestReindex(servers, security, request);
            System.err.println("[chartstream] re-index of " + request.id() + " requested (active generation " + activeBefore + ")");
            if (!await) {
                return 0;
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(timeoutSeconds).toNanos();
            while (System.nanoTime() < deadline) {
                IngestTableStatus now = reader.latestTableStatus(Duration.ofSeconds(10)).get(request.id());
                if (now != null && now.getActiveGeneration() > activeBefore && now.getStagedGeneration() == 0) {
                    System.out.println(request.id() + ": generation " + now.getActiveGeneration() + " published (" + now.getRows()
                            + " rows, " + now.getChunks() + " chunks); generation " + activeBefore + " superseded");
                    return 0;
                }
                Thread.sleep(500);
            }
            System.err.println("[chartstream] no cutover within " + timeoutSeconds + " s (nothing published yet, or a"
                    + " snapshot is still building the table)");
            return 2;
        }
    }
}

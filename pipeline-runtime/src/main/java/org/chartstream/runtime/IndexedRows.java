package org.chartstream.runtime;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.chartstream.connectors.SourceConnection;
import org.chartstream.core.store.HybridStore;
import org.chartstream.core.store.TableRef;
import org.chartstream.ingest.normalize.SourceRegistration;
import org.chartstream.schemas.Topics;

/**
 * Whether a runtime's index has caught up with its sources: rows per registered table in the source databases and
 * in the store's active generations, and the waits for a first published generation and for every row.
 */
final class IndexedRows {
    private final List<SourceRegistration> sources;
    private final EmbeddedInfrastructure infrastructure;
    private final HybridStore store;
    private final Runnable checkHealthy;
    private final Consumer<String> progress;
    private final Supplier<IngestProgressTail> snapshots;

    /**
     * @param checkHealthy throws if a part of the pipeline has stopped on an error (a wait then ends at once)
     * @param snapshots    opens a reader of the ingest's status and progress topics, for what a snapshot has done so far
     */
    IndexedRows(List<SourceRegistration> sources, EmbeddedInfrastructure infrastructure, HybridStore store,
                Runnable checkHealthy, Consumer<String> progress, Supplier<IngestProgressTail> snapshots) {
        this.snapshots = snapshots;
        this.sources = sources;
        this.infrastructure = infrastructure;
        this.store = store;
        this.checkHealthy = checkHealthy;
        this.progress = progress;
    }

    /** The key of a table in the count maps: the table name with one source, {@code source:table} with several. */
    private String countKey(SourceRegistration source, String table) {
        return sources.size() == 1 ? table : new TableRef(source.sourceId(), table).id();
    }

    /** The {@code source:table} of a count key. */
    private String tableKey(String countKey) {
        return countKey.contains(":") ? countKey : new TableRef(sources.getFirst().sourceId(), countKey).id();
    }

    /** Rows per registered table in the source databases. */
    Map<String, Long> sourceRowCounts() {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (SourceRegistration source : sources) {
            SourceConnection connection = infrastructure.connections().get(source.sourceId());
            try (Connection c = infrastructure.connection(source.sourceId()); Statement s = c.createStatement()) {
                for (String table : SourceRegistrations.indexedTables(source)) {
                    try (ResultSet rs = s.executeQuery("select count(*) from " + SourceDatabases.qualifiedTable(connection, table))) {
                        rs.next();
                        counts.put(countKey(source, table), rs.getLong(1));
                    }
                }
            } catch (SQLException e) {
                throw new IllegalStateException("cannot count source rows of " + source.sourceId() + ": " + e.getMessage(), e);
            }
        }
        return counts;
    }

    /** Rows per registered table visible in the index's active generations. */
    Map<String, Long> indexedRowCounts() {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (SourceRegistration source : sources) {
            for (String table : SourceRegistrations.indexedTables(source)) {
                counts.put(countKey(source, table), store.countRows(new TableRef(source.sourceId(), table)));
            }
        }
        return counts;
    }

    /** Blocks until the store has a published generation to search (a query process that has no source to count). */
    void awaitStoreReady(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long lastReport = System.nanoTime();
        while (!store.ready()) {
            checkHealthy.run();
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no published index generation within " + timeout.toSeconds() + " s: is the ingest process running?");
            }
            if (System.nanoTime() - lastReport > 5_000_000_000L) {
                lastReport = System.nanoTime();
                progress.accept("waiting for the first published generation on " + Topics.INDEX);
            }
            sleep(250);
        }
        progress.accept("store ready: " + store.chunkCount() + " chunks searchable");
    }

    /**
     * Blocks until every registered table's active generation holds as many rows as the source. Its progress lines
     * give per table the rows searchable of the source's and, while a snapshot builds the table's next generation, the
     * rows staged and chunks embedded so far (the generation becomes searchable whole once complete).
     */
    void awaitSearchable(Duration timeout) {
        try (IngestProgressTail tail = snapshots.get()) {
            awaitSearchable(timeout, tail);
        }
    }

    private void awaitSearchable(Duration timeout, IngestProgressTail tail) {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        long lastReport = 0;
        while (true) {
            checkHealthy.run();
            Map<String, Long> expected = sourceRowCounts();
            Map<String, Long> indexed = indexedRowCounts();
            if (indexed.equals(expected)) {
                progress.accept(String.format("searchable: %s rows indexed (%.1f s)", total(indexed), PipelineRuntime.secondsSince(start)));
                return;
            }
            if (System.nanoTime() - lastReport > 2_000_000_000L) {
                lastReport = System.nanoTime();
                StringBuilder line = new StringBuilder(String.format("indexing (%.0f s):", PipelineRuntime.secondsSince(start)));
                tail.poll(Duration.ofMillis(100));
                expected.forEach((table, n) -> line.append(' ').append(table).append(' ').append(indexed.get(table)).append('/').append(n)
                        .append(tail.snapshotProgress(tableKey(table))));
                progress.accept(line.toString());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("index did not catch up with the source within " + timeout.toSeconds()
                        + " s: source " + expected + ", indexed " + indexed);
            }
            sleep(250);
        }
    }

    private static long total(Map<String, Long> counts) {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}

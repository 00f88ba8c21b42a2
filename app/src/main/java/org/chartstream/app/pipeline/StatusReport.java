package org.chartstream.app.pipeline;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.chartstream.core.store.TableRef;
import org.chartstream.runtime.StoreStatus;
import org.chartstream.schemas.EmbeddedChunks;
import org.chartstream.schemas.EmbeddingProgress;
import org.chartstream.schemas.IngestTableStatus;

/**
 * Per table, what `chartstream status` prints: the store's view (as a query process published it on
 * {@code chartstream.store.status}) joined with the ingest side's. Without a published store view the store's columns
 * are unknown, not zero.
 */
public final class StatusReport {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * @param active       the generation readers see (from the store), null if no store view is known
     * @param rows         rows readers see in it, null if no store view is known
     * @param chunks       chunks of the table's rows as ingested
     * @param staged       a generation being built (snapshot or re-index), 0 if none
     * @param ingestLag    change events of the table not yet read by the ingest topology
     */
    public record Line(String table, Long active, Long rows, long chunks, long staged, String model,
                       String position, long commitTsMs, long ingestLag) {
    }

    private StatusReport() {
    }

    /**
     * @param tables       {@code source:table} of every registered table, in order
     * @param changeTopics the change topic of each of those tables
     * @param store        what a query process's readers see; null if none has published it
     */
    public static List<Line> lines(List<String> tables, Map<String, String> changeTopics, StoreStatus store,
                                   Map<String, IngestTableStatus> ingest, Map<String, Long> topicLag) {
        List<Line> out = new ArrayList<>();
        for (String table : tables) {
            IngestTableStatus s = ingest.get(table);
            out.add(new Line(table,
                    store == null ? null : store.activeGenerations().getOrDefault(table, 0L),
                    store == null ? null : store.rows().getOrDefault(table, 0L),
                    s == null ? 0 : s.getChunks(), s == null ? 0 : s.getStagedGeneration(),
                    s == null ? "" : s.getModelId(), s == null ? "" : s.getSourcePosition(), s == null ? 0 : s.getCommitTsMs(),
                    topicLag.getOrDefault(changeTopics.get(table), 0L)));
        }
        return out;
    }

    /**
     * The store view to report among those the query processes published: the most recently updated one (with one
     * query process, its own; a stopped process's view is older than a running one's).
     */
    public static Optional<StoreStatus> freshest(Map<String, StoreStatus> byInstance) {
        return byInstance.values().stream().max(java.util.Comparator.comparingLong(StoreStatus::updatedMs));
    }

    /** Records of the index log the store has not applied: end offsets minus the store's committed positions. */
    public static long indexLag(Map<Integer, Long> endOffsets, Map<Integer, Long> committed) {
        long lag = 0;
        for (Map.Entry<Integer, Long> e : endOffsets.entrySet()) {
            lag += Math.max(0, e.getValue() - committed.getOrDefault(e.getKey(), 0L));
        }
        return lag;
    }

    /** @param indexLag index-log records the store has not applied yet (whole log), null if no store view is known */
    public static String text(List<Line> lines, Long indexLag, long nowMs) {
        StringBuilder out = new StringBuilder(String.format("%-32s %6s %8s %8s %6s %-20s %-28s %8s %9s%n",
                "table", "active", "rows", "chunks", "staged", "model", "last source position", "cdc lag", "age"));
        for (Line l : lines) {
            out.append(String.format("%-32s %6s %8s %8d %6s %-20s %-28s %8d %9s%n", l.table(), orDash(l.active()), orDash(l.rows()),
                    l.chunks(), l.staged() == 0 ? "-" : Long.toString(l.staged()), l.model(), l.position(),
                    l.ingestLag(), l.commitTsMs() == 0 ? "-" : ((nowMs - l.commitTsMs()) / 1000) + " s"));
        }
        out.append("index log records not yet in the store: ").append(indexLag == null
                ? "unknown (no query process has published its store status on " + org.chartstream.schemas.Topics.STORE_STATUS + ")"
                : indexLag).append('\n');
        return out.toString();
    }

    private static String orDash(Long value) {
        return value == null ? "-" : value.toString();
    }

    /**
     * Chunks of the table's generation being built (or, with none, of its active one) that the embedding tasks have
     * embedded and written to the index log, over every partition.
     */
    public static long embeddedChunks(IngestTableStatus status, Map<Integer, EmbeddingProgress> embedded) {
        long generation = status.getStagedGeneration() > 0 ? status.getStagedGeneration() : status.getActiveGeneration();
        return EmbeddedChunks.of(embedded.values(), new TableRef(status.getSourceId(), status.getTableName()).id(), generation);
    }

    public static List<String> notices(List<String> tables, Map<String, IngestTableStatus> ingest) {
        return notices(tables.stream().map(t -> new Line(t, null, null, 0, 0, "", "", 0, 0)).toList(), ingest, Map.of());
    }

    /**
     * What an operator should know per table beyond the counts: a table dropped at the source, a snapshot under way
     * (a generation being built, or one the store does not serve yet: rows staged and chunks embedded so far; it is
     * published whole once complete), row changes not indexed because every allowed field was NULL, codes their dictionary
     * does not hold, and columns added since the table was first indexed that stay out of the index until allow-listed.
     */
    public static List<String> notices(List<Line> lines, Map<String, IngestTableStatus> ingest, Map<Integer, EmbeddingProgress> embedded) {
        List<String> out = new ArrayList<>();
        for (Line line : lines) {
            String table = line.table();
            IngestTableStatus s = ingest.get(table);
            if (s == null) {
                continue;
            }
            if (s.getDropped()) {
                out.add(table + ": dropped at the source; its rows left the index (indexed afresh if the table is created again)");
            }
            boolean notServedYet = line.rows() != null && line.rows() < s.getRows() && !s.getDropped();
            if (s.getStagedGeneration() > 0 || notServedYet) {
                out.add(table + ": being indexed: " + (s.getStagedGeneration() > 0 ? s.getStagedRows() : s.getRows()) + " rows staged, "
                        + embeddedChunks(s, embedded) + "/" + s.getChunks() + " chunks embedded (searchable whole once complete)");
            }
            if (s.getRowsSkippedEmpty() > 0) {
                out.add(table + ": " + s.getRowsSkippedEmpty() + " row change(s) not indexed, every allowed field NULL (rows_skipped_empty)");
            }
            if (s.getUnresolvedCodes() > 0) {
                out.add(table + ": " + s.getUnresolvedCodes() + " code(s) not in their dictionary, shown without meaning (unresolved_codes)");
            }
            if (!s.getUnreviewedColumns().isEmpty()) {
                out.add(table + ": new column(s) not indexed until allow-listed in source.fields." + s.getTableName() + ": "
                        + String.join(", ", s.getUnreviewedColumns()));
            }
        }
        return out;
    }

    /** {@link #notices} as text lines after the table, or nothing. */
    public static String noticeText(List<String> notices) {
        return notices.stream().map(n -> "notice: " + n + "\n").reduce("", String::concat);
    }

    public static String json(List<Line> lines, Long indexLag, List<String> tables, Map<String, IngestTableStatus> ingest) {
        return json(lines, indexLag, tables, ingest, Map.of());
    }

    /** {@link #json(List, Long)} with the notices and each table's counters and snapshot progress. */
    public static String json(List<Line> lines, Long indexLag, List<String> tables, Map<String, IngestTableStatus> ingest,
                              Map<Integer, EmbeddingProgress> embedded) {
        ObjectNode root = jsonTree(lines, indexLag);
        ArrayNode rows = (ArrayNode) root.get("tables");
        for (int i = 0; i < rows.size() && i < tables.size(); i++) {
            IngestTableStatus s = ingest.get(tables.get(i));
            ObjectNode row = (ObjectNode) rows.get(i);
            row.put("rows_skipped_empty", s == null ? 0 : s.getRowsSkippedEmpty());
            row.put("staged_rows", s == null ? 0 : s.getStagedRows());
            row.put("embedded_chunks", s == null ? 0 : embeddedChunks(s, embedded));
            row.put("dropped", s != null && s.getDropped());
            row.put("unresolved_codes", s == null ? 0 : s.getUnresolvedCodes());
            ArrayNode columns = row.putArray("unreviewed_columns");
            (s == null ? List.<String>of() : s.getUnreviewedColumns()).forEach(columns::add);
        }
        ArrayNode notes = root.putArray("notices");
        notices(lines, ingest, embedded).forEach(notes::add);
        return root.toString();
    }

    public static String json(List<Line> lines, Long indexLag) {
        return jsonTree(lines, indexLag).toString();
    }

    private static ObjectNode jsonTree(List<Line> lines, Long indexLag) {
        ObjectNode root = JSON.createObjectNode();
        ArrayNode tables = root.putArray("tables");
        for (Line l : lines) {
            tables.addObject().put("table", l.table()).put("active_generation", l.active()).put("rows", l.rows())
                    .put("chunks", l.chunks()).put("staged_generation", l.staged()).put("model", l.model())
                    .put("last_source_position", l.position()).put("last_commit_ts_ms", l.commitTsMs())
                    .put("cdc_lag", l.ingestLag());
        }
        root.put("index_lag", indexLag);
        return root;
    }
}

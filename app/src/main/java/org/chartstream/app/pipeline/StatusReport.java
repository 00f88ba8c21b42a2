package org.chartstream.app.pipeline;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.chartstream.ingest.status.TableStatus;
import org.chartstream.runtime.StoreStatus;

/** Per table, what `chartstream status` prints: the store's view joined with the ingest side's. */
public final class StatusReport {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * @param active       the generation readers see (from the store)
     * @param rows         rows readers see in it
     * @param chunks       chunks of the table's rows as ingested
     * @param staged       a generation being built (snapshot or re-index), 0 if none
     * @param ingestLag    change events of the table not yet read by the ingest topology
     */
    public record Line(String table, long active, long rows, long chunks, long staged, String model,
                       String position, long commitTsMs, long ingestLag) {
    }

    private StatusReport() {
    }

    /**
     * @param tables       {@code source:table} of every registered table, in order
     * @param changeTopics the change topic of each of those tables
     * @param indexLag     index-log records the store has not applied yet (whole log)
     */
    public static List<Line> lines(List<String> tables, Map<String, String> changeTopics, StoreStatus store,
                                   Map<String, TableStatus> ingest, Map<String, Long> topicLag) {
        List<Line> out = new ArrayList<>();
        for (String table : tables) {
            TableStatus s = ingest.get(table);
            out.add(new Line(table,
                    store == null ? 0 : store.activeGenerations().getOrDefault(table, 0L),
                    store == null ? 0 : store.rows().getOrDefault(table, 0L),
                    s == null ? 0 : s.chunks(), s == null ? 0 : s.staged(),
                    s == null ? "" : s.modelId(), s == null ? "" : s.position(), s == null ? 0 : s.commitTsMs(),
                    topicLag.getOrDefault(changeTopics.get(table), 0L)));
        }
        return out;
    }

    /** Records of the index log the store has not applied: end offsets minus the store's committed positions. */
    public static long indexLag(Map<Integer, Long> endOffsets, Map<Integer, Long> committed) {
        long lag = 0;
        for (Map.Entry<Integer, Long> e : endOffsets.entrySet()) {
            lag += Math.max(0, e.getValue() - committed.getOrDefault(e.getKey(), 0L));
        }
        return lag;
    }

    public static String text(List<Line> lines, long indexLag, long nowMs) {
        StringBuilder out = new StringBuilder(String.format("%-32s %6s %8s %8s %6s %-20s %-28s %8s %9s%n",
                "table", "active", "rows", "chunks", "staged", "model", "last source position", "cdc lag", "age"));
        for (Line l : lines) {
            out.append(String.format("%-32s %6d %8d %8d %6s %-20s %-28s %8d %9s%n", l.table(), l.active(), l.rows(),
                    l.chunks(), l.staged() == 0 ? "-" : Long.toString(l.staged()), l.model(), l.position(),
                    l.ingestLag(), l.commitTsMs() == 0 ? "-" : ((nowMs - l.commitTsMs()) / 1000) + " s"));
        }
        out.append("index log records not yet in the store: ").append(indexLag).append('\n');
        return out.toString();
    }

    /**
     * What an operator should know per table beyond the counts: row changes not indexed because every allowed field
     * was NULL, and columns added since the table was first indexed that stay out of the index until allow-listed.
     */
    public static List<String> notices(List<String> tables, Map<String, TableStatus> ingest) {
        List<String> out = new ArrayList<>();
        for (String table : tables) {
            TableStatus s = ingest.get(table);
            if (s == null) {
                continue;
            }
            if (s.rowsSkippedEmpty() > 0) {
                out.add(table + ": " + s.rowsSkippedEmpty() + " row change(s) not indexed, every allowed field NULL (rows_skipped_empty)");
            }
            if (!s.unreviewedColumns().isEmpty()) {
                out.add(table + ": new column(s) not indexed until allow-listed in source.fields." + s.table() + ": "
                        + String.join(", ", s.unreviewedColumns()));
            }
        }
        return out;
    }

    /** {@link #notices} as text lines after the table, or nothing. */
    public static String noticeText(List<String> notices) {
        return notices.stream().map(n -> "notice: " + n + "\n").reduce("", String::concat);
    }

    /** {@link #json(List, long)} with the notices and each table's counters. */
    public static String json(List<Line> lines, long indexLag, List<String> tables, Map<String, TableStatus> ingest) {
        ObjectNode root = jsonTree(lines, indexLag);
        ArrayNode rows = (ArrayNode) root.get("tables");
        for (int i = 0; i < rows.size() && i < tables.size(); i++) {
            TableStatus s = ingest.get(tables.get(i));
            ObjectNode row = (ObjectNode) rows.get(i);
            row.put("rows_skipped_empty", s == null ? 0 : s.rowsSkippedEmpty());
            ArrayNode columns = row.putArray("unreviewed_columns");
            (s == null ? List.<String>of() : s.unreviewedColumns()).forEach(columns::add);
        }
        ArrayNode notes = root.putArray("notices");
        notices(tables, ingest).forEach(notes::add);
        return root.toString();
    }

    public static String json(List<Line> lines, long indexLag) {
        return jsonTree(lines, indexLag).toString();
    }

    private static ObjectNode jsonTree(List<Line> lines, long indexLag) {
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

package org.chartstream.ingest.status;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.chartstream.schemas.IngestTableStatus;

/**
 * One table's state as the ingest side knows it, published on the ingest status topic (key {@code source:table})
 * after every embedding batch that touched the table, as an {@link IngestTableStatus} ({@link #toRecord}). The
 * planner's changelogged store keeps it as JSON ({@link #encode}).
 *
 * @param active     the generation the ingest side has published (readers see it once the store applied it)
 * @param staged     the generation being built by a snapshot or re-index, 0 if none
 * @param rows       rows of the table as ingested (the active generation's rows once caught up)
 * @param chunks     chunks of those rows
 * @param position   the source position (LSN, binlog file:pos) of the newest change seen
 * @param commitTsMs the source commit time of that change
 * @param rowsSkippedEmpty  row changes not indexed because every allowed field was NULL or empty
 * @param unreviewedColumns columns added to the table after it was first indexed, left out until allow-listed
 * @param stagedRows rows a snapshot has written to the staged generation so far (set when announced)
 * @param dropped    the table no longer exists at the source and its rows left the index
 * @param unresolvedCodes codes of the indexed rows that their dictionary does not hold, each shown without meaning
 *                   (one per row and lookup)
 */
public record TableStatus(String sourceId, String table, long active, long staged, long rows, long chunks,
                          String modelId, String position, long commitTsMs, long updatedMs,
                          long rowsSkippedEmpty, List<String> unreviewedColumns, long stagedRows, boolean dropped,
                          long unresolvedCodes) {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<List<String>> COLUMNS = new TypeReference<>() {
    };

    public TableStatus {
        unreviewedColumns = List.copyOf(unreviewedColumns);
    }

    public TableStatus(String sourceId, String table, long active, long staged, long rows, long chunks,
                       String modelId, String position, long commitTsMs, long updatedMs) {
        this(sourceId, table, active, staged, rows, chunks, modelId, position, commitTsMs, updatedMs, 0, List.of(), 0, false, 0);
    }

    public static TableStatus empty(String sourceId, String table) {
        return new TableStatus(sourceId, table, 0, 0, 0, 0, "", "", 0, 0);
    }

    /** One more row change that was not indexed because all its allowed fields were NULL. */
    public TableStatus withSkippedEmptyRow() {
        return new TableStatus(sourceId, table, active, staged, rows, chunks, modelId, position, commitTsMs, updatedMs,
                rowsSkippedEmpty + 1, unreviewedColumns, stagedRows, dropped, unresolvedCodes);
    }

    public TableStatus withUnreviewedColumns(List<String> columns) {
        return new TableStatus(sourceId, table, active, staged, rows, chunks, modelId, position, commitTsMs, updatedMs,
                rowsSkippedEmpty, columns, stagedRows, dropped, unresolvedCodes);
    }

    /** With the table's generations as they are now: the active and staged one and the rows staged so far. */
    public TableStatus withGenerations(long newActive, long newStaged, long newStagedRows) {
        return new TableStatus(sourceId, table, newActive, newStaged, rows, chunks, modelId, position, commitTsMs, updatedMs,
                rowsSkippedEmpty, unreviewedColumns, newStaged == 0 ? 0 : newStagedRows, dropped, unresolvedCodes);
    }

    /** Whether the table is gone from the source (its rows left the index) or exists again. */
    public TableStatus withDropped(boolean isDropped) {
        return new TableStatus(sourceId, table, active, staged, rows, chunks, modelId, position, commitTsMs, updatedMs,
                rowsSkippedEmpty, unreviewedColumns, stagedRows, isDropped, unresolvedCodes);
    }

    /** With {@code delta} more (or fewer) codes shown without their meaning. */
    public TableStatus withUnresolvedCodes(long delta) {
        return delta == 0 ? this : new TableStatus(sourceId, table, active, staged, rows, chunks, modelId, position, commitTsMs,
                updatedMs, rowsSkippedEmpty, unreviewedColumns, stagedRows, dropped, unresolvedCodes + delta);
    }

    public TableStatus withCounts(long newRows, long newChunks) {
        return new TableStatus(sourceId, table, active, staged, newRows, newChunks, modelId, position, commitTsMs, updatedMs,
                rowsSkippedEmpty, unreviewedColumns, stagedRows, dropped, unresolvedCodes);
    }

    /**
     * Remembers the newest source position; tombstones carry none and leave it as it is. A change of the table means
     * it exists at the source (again, if it was dropped).
     */
    public TableStatus withChange(String newPosition, long newCommitTsMs, String newModelId) {
        boolean known = newPosition != null && !newPosition.isEmpty();
        return new TableStatus(sourceId, table, active, staged, rows, chunks, newModelId,
                known ? newPosition : position, known ? newCommitTsMs : commitTsMs, updatedMs, rowsSkippedEmpty, unreviewedColumns, stagedRows, false,
                unresolvedCodes);
    }

    public TableStatus at(long nowMs) {
        return new TableStatus(sourceId, table, active, staged, rows, chunks, modelId, position, commitTsMs, nowMs,
                rowsSkippedEmpty, unreviewedColumns, stagedRows, dropped, unresolvedCodes);
    }

    /** The wire record of the status topic. */
    public IngestTableStatus toRecord() {
        return IngestTableStatus.newBuilder().setSourceId(sourceId).setTableName(table).setActiveGeneration(active)
                .setStagedGeneration(staged).setRows(rows).setChunks(chunks).setModelId(modelId).setSourcePosition(position)
                .setCommitTsMs(commitTsMs).setUpdatedMs(updatedMs).setRowsSkippedEmpty(rowsSkippedEmpty)
                .setUnreviewedColumns(unreviewedColumns).setStagedRows(stagedRows).setDropped(dropped).setUnresolvedCodes(unresolvedCodes).build();
    }

    public String encode() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("source", sourceId);
        out.put("table", table);
        out.put("active", active);
        out.put("staged", staged);
        out.put("rows", rows);
        out.put("chunks", chunks);
        out.put("model", modelId);
        out.put("position", position);
        out.put("commit_ts_ms", commitTsMs);
        out.put("updated_ms", updatedMs);
        out.put("rows_skipped_empty", rowsSkippedEmpty);
        out.put("unreviewed_columns", unreviewedColumns);
        out.put("dropped", dropped);
        out.put("unresolved_codes", unresolvedCodes);
        try {
            return JSON.writeValueAsString(out);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode a table status", e);
        }
    }

    public static TableStatus decode(String encoded) {
        try {
            JsonNode n = JSON.readTree(encoded);
            return new TableStatus(n.path("source").asText(), n.path("table").asText(), n.path("active").asLong(),
                    n.path("staged").asLong(), n.path("rows").asLong(), n.path("chunks").asLong(),
                    n.path("model").asText(), n.path("position").asText(), n.path("commit_ts_ms").asLong(),
                    n.path("updated_ms").asLong(), n.path("rows_skipped_empty").asLong(),
                    n.has("unreviewed_columns") ? JSON.convertValue(n.get("unreviewed_columns"), COLUMNS) : List.of(),
                    0, n.path("dropped").asBoolean(false), n.path("unresolved_codes").asLong(0));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a table status: " + e.getOriginalMessage(), e);
        }
    }
}

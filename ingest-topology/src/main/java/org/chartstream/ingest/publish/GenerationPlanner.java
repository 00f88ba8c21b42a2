package org.chartstream.ingest.publish;

import java.util.List;
import org.chartstream.schemas.RowOp;
import org.chartstream.schemas.SnapshotMarker;

/**
 * Decides, for one row change, which generations it is written to and whether a generation is published.
 * Snapshot rows build a staged generation that is published when the table's last snapshot row has been seen;
 * streaming changes go to the active generation and to a staged one (a re-index) if there is one.
 *
 * <p>The last row is the one Debezium marks {@code last} or {@code last_in_data_collection}, or, when Debezium's
 * table-scan notice gave the row count, the row that reaches it. The count is what finishes a first table with a
 * single row: Debezium marks that row {@code first} and nothing marks the table's end. The notice and the rows come
 * on different topics, so either may be read first.
 */
public final class GenerationPlanner {

    /** What to do with one change. {@code publish} is the generation to publish after writing the row, or 0. */
    public record Plan(List<Long> targets, long publish, TableGenerations next) {
    }

    private GenerationPlanner() {
    }

    public static Plan plan(TableGenerations state, RowOp op, SnapshotMarker marker) {
        if (op == RowOp.SNAPSHOT) {
            long staged = state.staged() > 0 ? state.staged() : Math.max(state.highest(), state.active()) + 1;
            TableGenerations next = new TableGenerations(state.active(), staged, Math.max(state.highest(), staged),
                    stagedRowsWith(state, marker), state.scannedRows());
            boolean lastRow = marker == SnapshotMarker.LAST || marker == SnapshotMarker.LAST_IN_TABLE
                    || (next.scannedRows() > 0 && next.stagedRows() >= next.scannedRows());
            if (lastRow) {
                return new Plan(List.of(staged), staged, new TableGenerations(staged, 0, next.highest(), 0));
            }
            return new Plan(List.of(staged), 0, next);
        }
        if (op == RowOp.DELETE) {
            return new Plan(List.of(), 0, state);
        }
        if (state.active() == 0 && state.staged() == 0) {
            // a table that had no snapshot (empty at start): its first change opens generation 1
            long first = state.highest() + 1;
            return new Plan(List.of(first), first, new TableGenerations(first, 0, first, 0));
        }
        if (state.active() == 0) {
            return new Plan(List.of(state.staged()), 0, state);
        }
        if (state.staged() > 0) {
            return new Plan(List.of(state.active(), state.staged()), 0, state);
        }
        return new Plan(List.of(state.active()), 0, state);
    }

    /**
     * The rows the staged generation holds once this snapshot row is written. A row Debezium marks as the first of
     * the table while rows are already staged means the snapshot started over (a kill before Debezium's offsets
     * recorded it, so the restart reads every row again into the same generation): the count starts again too, or
     * the rows read twice would reach the scanned count before the table's last row and publish it incomplete.
     */
    public static long stagedRowsWith(TableGenerations state, SnapshotMarker marker) {
        boolean startedOver = marker == SnapshotMarker.FIRST || marker == SnapshotMarker.FIRST_IN_TABLE;
        return (state.staged() > 0 && !startedOver ? state.stagedRows() : 0) + 1;
    }

    /**
     * Opens a re-index generation: the next unused number, staged, while the active one keeps serving. Empty if
     * the table has nothing published yet or a generation is already being built (that one finishes first).
     */
    public static java.util.Optional<TableGenerations> startReindex(TableGenerations state) {
        if (state.active() == 0 || state.staged() > 0) {
            return java.util.Optional.empty();
        }
        long next = Math.max(state.highest(), state.active()) + 1;
        return java.util.Optional.of(new TableGenerations(state.active(), next, next, 0));
    }

    /**
     * Debezium's notice that the snapshot read {@code rows} rows of the table. Publishes the staged generation if
     * they have all been written; otherwise remembers the count for the row that completes it. A table the snapshot
     * found empty gets an empty generation at once, so it counts as indexed before its first row arrives. A notice
     * for a table whose snapshot is already published (its last row was marked, or a change arrived first) changes
     * nothing.
     */
    public static Plan scanCompleted(TableGenerations state, long rows) {
        if (rows < 0 || (state.staged() == 0 && state.active() > 0)) {
            return new Plan(List.of(), 0, state);
        }
        if (state.staged() == 0 && rows == 0) {
            long empty = state.highest() + 1;
            return new Plan(List.of(), empty, new TableGenerations(empty, 0, empty, 0));
        }
        if (state.staged() > 0 && state.stagedRows() >= rows) {
            return new Plan(List.of(), state.staged(), published(state));
        }
        return new Plan(List.of(), 0, new TableGenerations(state.active(), state.staged(), state.highest(), state.stagedRows(), rows));
    }

    /**
     * A {@code TRUNCATE} of the table: an empty generation with the next unused number, published at once, so every
     * row leaves the index in one step (the store drops all older generations when it publishes). A generation still
     * being built (a re-index) is abandoned: the rows it was built from were truncated too.
     */
    public static Plan truncated(TableGenerations state) {
        long empty = Math.max(state.highest(), Math.max(state.active(), state.staged())) + 1;
        return new Plan(List.of(), empty, new TableGenerations(empty, 0, empty, 0));
    }

    /** The state after the staged generation has been published. */
    public static TableGenerations published(TableGenerations state) {
        return new TableGenerations(state.staged(), 0, state.highest(), 0);
    }
}

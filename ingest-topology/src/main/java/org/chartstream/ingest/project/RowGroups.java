package org.chartstream.ingest.project;

import java.util.Optional;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Rows grouped by what they name ({@link RowsByGroup}) and the groups that changed since their rows were last
 * rendered: a changed group gets a cursor (key the group, value the last row rendered again, {@code ""} before the
 * first) that the caller walks a row at a time ({@link #nextChanged}), so that a group with many rows is spread over
 * as many transactions as it needs.
 */
public final class RowGroups {
    private final RowsByGroup rows;
    private final KeyValueStore<String, String> changed;

    /**
     * @param rows    one entry per row and group it names
     * @param changed the groups whose rows are still to be rendered again, with the last row done
     */
    public RowGroups(KeyValueStore<String, String> rows, KeyValueStore<String, String> changed) {
        this.rows = new RowsByGroup(rows);
        this.changed = changed;
    }

    /** A row of a changed group, still to be rendered again. */
    public record Member(String group, String rowStoreKey) {
    }

    public void add(String group, String rowStoreKey) {
        rows.add(group, rowStoreKey);
    }

    public void remove(String group, String rowStoreKey) {
        rows.remove(group, rowStoreKey);
    }

    /** The group's rows are to be rendered again, from the first (also when an earlier change is being worked off). */
    public void changed(String group) {
        changed.put(group, "");
    }

    /**
     * {@link #changed} for a group that has rows; a group without any gets no cursor (most codes of a dictionary are
     * used by no row: a dictionary's snapshot writes no cursor for them).
     */
    public void changedIfUsed(String group) {
        if (rows.after(group, "").isPresent()) {
            changed(group);
        }
    }

    /**
     * The next row of a changed group, in group then row-key order; the group's cursor moves past it (and is dropped
     * after the group's last row). Empty once none is left.
     */
    public Optional<Member> nextChanged() {
        while (true) {
            KeyValue<String, String> cursor;
            try (KeyValueIterator<String, String> it = changed.all()) {
                if (!it.hasNext()) {
                    return Optional.empty();
                }
                cursor = it.next();
            }
            Optional<String> next = rows.after(cursor.key, cursor.value);
            if (next.isPresent()) {
                changed.put(cursor.key, next.get());
                return Optional.of(new Member(cursor.key, next.get()));
            }
            changed.delete(cursor.key);
        }
    }
}

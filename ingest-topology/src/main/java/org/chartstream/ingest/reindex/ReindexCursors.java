package org.chartstream.ingest.reindex;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.chartstream.core.store.TableRef;

/** The {@link ReindexCursor} of every table being re-indexed, kept in the planner's changelogged store under {@link TableRef#id()}. */
public final class ReindexCursors {
    private final KeyValueStore<String, String> store;

    public ReindexCursors(KeyValueStore<String, String> store) {
        this.store = store;
    }

    /** The table's cursor, or null when no re-index of it is open. */
    public ReindexCursor of(TableRef table) {
        String encoded = store.get(table.id());
        return encoded == null ? null : ReindexCursor.decode(encoded);
    }

    public void put(TableRef table, ReindexCursor cursor) {
        store.put(table.id(), cursor.encode());
    }

    public void delete(TableRef table) {
        store.delete(table.id());
    }

    /** Every open re-index, in key order. */
    public Map<TableRef, ReindexCursor> open() {
        Map<TableRef, ReindexCursor> out = new LinkedHashMap<>();
        try (KeyValueIterator<String, String> it = store.all()) {
            it.forEachRemaining(kv -> out.put(TableRef.parse(kv.key), ReindexCursor.decode(kv.value)));
        }
        return out;
    }
}

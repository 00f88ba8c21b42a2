package org.chartstream.ingest.status;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.chartstream.ingest.publish.TableGenerations;

/**
 * Every table's {@link TableStatus}, kept in a changelogged store (key {@code source:table}), and which tables
 * changed since their status was last announced. After a restart every kept status is announced again.
 */
public final class TableStatuses {
    private final KeyValueStore<String, String> store;
    private final Set<String> changed = new LinkedHashSet<>();

    public TableStatuses(KeyValueStore<String, String> store) {
        this.store = store;
        try (KeyValueIterator<String, String> it = store.all()) {
            it.forEachRemaining(kv -> changed.add(kv.key));
        }
    }

    /** The table's kept status, or an empty one. */
    public TableStatus of(String tableKey, String sourceId, String table) {
        String encoded = store.get(tableKey);
        return encoded == null ? TableStatus.empty(sourceId, table) : TableStatus.decode(encoded);
    }

    public void put(String tableKey, TableStatus status) {
        store.put(tableKey, status.encode());
        changed.add(tableKey);
    }

    /** Marks the table for the next announcement without changing its status (its generations changed). */
    public void touch(String tableKey) {
        changed.add(tableKey);
    }

    /**
     * Passes each changed table's kept status, with its current generations and {@code nowMs}, to {@code forward}.
     *
     * @return whether any status was passed
     */
    public boolean announce(long nowMs, Function<String, TableGenerations> generations, BiConsumer<String, TableStatus> forward) {
        boolean any = false;
        for (String tableKey : changed) {
            String encoded = store.get(tableKey);
            if (encoded != null) {
                TableGenerations g = generations.apply(tableKey);
                forward.accept(tableKey, TableStatus.decode(encoded).withGenerations(g.active(), g.staged(), g.stagedRows()).at(nowMs));
                any = true;
            }
        }
        changed.clear();
        return any;
    }
}

package org.chartstream.ingest.publish;

import org.apache.kafka.streams.state.KeyValueStore;
import org.chartstream.core.store.TableRef;

/** Every table's {@link TableGenerations}, kept in the planner's changelogged store under {@link TableRef#id()}. */
public final class TableGenerationStore {
    private final KeyValueStore<String, String> store;

    public TableGenerationStore(KeyValueStore<String, String> store) {
        this.store = store;
    }

    /** The table's generations; {@link TableGenerations#NONE} for a table never seen. */
    public TableGenerations of(TableRef table) {
        return TableGenerations.decode(store.get(table.id()));
    }

    public void put(TableRef table, TableGenerations generations) {
        store.put(table.id(), generations.encode());
    }
}

package org.chartstream.ingest.state;

import java.util.Map;
import java.util.Set;
import org.apache.kafka.streams.state.KeyValueStore;
import org.chartstream.core.store.TableRef;
import org.chartstream.ingest.project.ColumnPolicy;
import org.chartstream.ingest.project.TableProjection;

/** The columns each table had when it was first indexed ({@link ColumnPolicy}), kept under {@link TableRef#id()}. */
public final class TableColumns {
    private final KeyValueStore<String, String> store;

    public TableColumns(KeyValueStore<String, String> store) {
        this.store = store;
    }

    /** The table's recorded columns; empty if none were recorded yet. */
    public Set<String> of(TableRef table) {
        return ColumnPolicy.decode(store.get(table.id()));
    }

    public void put(TableRef table, Set<String> columns) {
        store.put(table.id(), ColumnPolicy.encode(columns));
    }

    /** The columns of {@code after} that may be indexed ({@link ColumnPolicy#admit}); records the table's columns the first time. */
    public ColumnPolicy.Admitted admit(TableRef table, TableProjection projection, Map<String, String> after) {
        Set<String> known = of(table);
        ColumnPolicy.Admitted admitted = ColumnPolicy.admit(projection, known, after);
        if (!admitted.known().equals(known)) {
            put(table, admitted.known());
        }
        return admitted;
    }
}

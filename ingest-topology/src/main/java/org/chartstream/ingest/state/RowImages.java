package org.chartstream.ingest.state;

import java.util.function.BiPredicate;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.chartstream.core.store.TableRef;
import org.chartstream.ingest.project.RowImage;

/**
 * The latest image of every indexed row ({@link RowImage}), kept in the planner's changelogged store under the row's
 * {@link RowId#id()}, so that a table's rows are one key range, in row-key order.
 */
public final class RowImages {
    private final KeyValueStore<String, String> store;

    public RowImages(KeyValueStore<String, String> store) {
        this.store = store;
    }

    /** The row's kept image, or null. */
    public RowImage get(RowId row) {
        String encoded = store.get(row.id());
        return encoded == null ? null : RowImage.decode(encoded);
    }

    public void put(RowId row, RowImage image) {
        store.put(row.id(), image.encode());
    }

    public void delete(RowId row) {
        store.delete(row.id());
    }

    /**
     * Visits the kept rows of {@code table} in key order, those after {@code after} only (null: from the first),
     * until {@code each} returns false.
     */
    public void scan(TableRef table, RowId after, BiPredicate<RowId, RowImage> each) {
        String from = after == null ? table.id() + ":" : after.id();
        try (KeyValueIterator<String, String> it = store.range(from, table.id() + ";")) {
            while (it.hasNext()) {
                var kv = it.next();
                if (after != null && kv.key.equals(after.id())) {
                    continue;
                }
                if (!each.test(RowId.parse(kv.key), RowImage.decode(kv.value))) {
                    return;
                }
            }
        }
    }
}

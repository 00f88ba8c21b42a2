package org.chartstream.ingest.project;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Rows grouped by something they name (their patient {@code source:patientId}, a code, an encounter), in a
 * changelogged store with one entry per row (key {@code group NUL rowStoreKey}, empty value), so that a group with
 * thousands of rows costs one small write per row and its rows are read by a prefix scan, in row-key order.
 */
final class RowsByGroup {
    private final KeyValueStore<String, String> store;

    RowsByGroup(KeyValueStore<String, String> store) {
        this.store = store;
    }

    void add(String group, String rowStoreKey) {
        store.put(prefix(group) + rowStoreKey, "");
    }

    void remove(String group, String rowStoreKey) {
        store.delete(prefix(group) + rowStoreKey);
    }

    /** The group's rows, forgotten here. */
    List<String> take(String group) {
        String prefix = prefix(group);
        List<String> keys = new ArrayList<>();
        try (KeyValueIterator<String, String> it = store.prefixScan(prefix, new StringSerializer())) {
            it.forEachRemaining(kv -> keys.add(kv.key));
        }
        keys.forEach(store::delete);
        return keys.stream().map(k -> k.substring(prefix.length())).toList();
    }

    /** The group's first row after {@code afterRowStoreKey} in key order ({@code ""}: the first of all). */
    Optional<String> after(String group, String afterRowStoreKey) {
        String prefix = prefix(group);
        String from = prefix + afterRowStoreKey;
        // a range from the last row read, not a scan of the group's whole prefix: a group's rows are read in O(rows)
        try (KeyValueIterator<String, String> it = store.range(from, group + "\u0001")) {
            while (it.hasNext()) {
                String key = it.next().key;
                if (!key.equals(from)) {
                    return Optional.of(key.substring(prefix.length()));
                }
            }
        }
        return Optional.empty();
    }

    private static String prefix(String group) {
        return group + "\u0000";
    }
}

package org.chartstream.ingest.project;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Rows grouped by the patient they name, in a changelogged store with one entry per row (key
 * {@code source:patientId NUL rowStoreKey}, empty value), so that a patient with thousands of rows costs one small
 * write per row and its rows are read by a prefix scan, in row-key order.
 */
final class RowsByPatient {
    private final KeyValueStore<String, String> store;

    RowsByPatient(KeyValueStore<String, String> store) {
        this.store = store;
    }

    void add(String sourceId, String patientId, String rowStoreKey) {
        store.put(prefix(sourceId, patientId) + rowStoreKey, "");
    }

    void remove(String sourceId, String patientId, String rowStoreKey) {
        store.delete(prefix(sourceId, patientId) + rowStoreKey);
    }

    /** The patient's rows, forgotten here. */
    List<String> take(String sourceId, String patientId) {
        String prefix = prefix(sourceId, patientId);
        List<String> keys = new ArrayList<>();
        try (KeyValueIterator<String, String> it = store.prefixScan(prefix, new StringSerializer())) {
            it.forEachRemaining(kv -> keys.add(kv.key));
        }
        keys.forEach(store::delete);
        return keys.stream().map(k -> k.substring(prefix.length())).toList();
    }

    /** The patient's first row after {@code afterRowStoreKey} in key order ({@code ""}: the first of all). */
    Optional<String> after(String sourceId, String patientId, String afterRowStoreKey) {
        String prefix = prefix(sourceId, patientId);
        String from = prefix + afterRowStoreKey;
        // a range from the last row read, not a scan of the patient's whole prefix: a patient's rows are read in O(rows)
        try (KeyValueIterator<String, String> it = store.range(from, sourceId + ":" + patientId + "\u0001")) {
            while (it.hasNext()) {
                String key = it.next().key;
                if (!key.equals(from)) {
                    return Optional.of(key.substring(prefix.length()));
                }
            }
        }
        return Optional.empty();
    }

    private static String prefix(String sourceId, String patientId) {
        return sourceId + ":" + patientId + "\u0000";
    }
}

package org.chartstream.ingest.project;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The patients each source's patient table names, kept in a changelogged store (key {@code source:patientId}) so
 * that a child row's header can name its patient whichever topic is read first, and (a second changelogged store,
 * one entry per row) the rows chunked before their patient's row was read, which must be chunked again once it is: until
 * then their header names no patient and their one-patient filter key is the raw id, so a question about that
 * patient would not find them.
 */
public final class PatientIdentities {
    private final KeyValueStore<String, String> store;
    private final KeyValueStore<String, String> awaiting;

    /** @param awaiting the rows chunked without their patient, one entry each: key {@code source:patientId NUL rowStoreKey} */
    public PatientIdentities(KeyValueStore<String, String> store, KeyValueStore<String, String> awaiting) {
        this.store = store;
        this.awaiting = awaiting;
    }

    /**
     * Keeps a patient-table row's identity; a row without a patient id names nobody.
     *
     * @return the row-store keys of the rows that were chunked before this patient was known (now forgotten here)
     */
    public List<String> remember(String sourceId, PatientIdentity identity) {
        if (identity.patientId() == null) {
            return List.of();
        }
        store.put(sourceId + ":" + identity.patientId(), identity.encode());
        String prefix = awaitingPrefix(sourceId, identity.patientId());
        List<String> keys = new ArrayList<>();
        try (KeyValueIterator<String, String> it = awaiting.prefixScan(prefix, new StringSerializer())) {
            it.forEachRemaining(kv -> keys.add(kv.key));
        }
        keys.forEach(awaiting::delete);
        return keys.stream().map(k -> k.substring(prefix.length())).toList();
    }

    /** Notes that {@code rowStoreKey} was chunked while its patient {@code patientId} was not known yet. */
    public void awaitPatient(String sourceId, String patientId, String rowStoreKey) {
        // one entry per row, so that a patient with thousands of rows read before it costs one write each
        awaiting.put(awaitingPrefix(sourceId, patientId) + rowStoreKey, "");
    }

    private static String awaitingPrefix(String sourceId, String patientId) {
        return sourceId + ":" + patientId + "\u0000";
    }

    /** True once the patient table's row of {@code patientId} has been read. */
    public boolean known(String sourceId, String patientId) {
        return store.get(sourceId + ":" + patientId) != null;
    }

    /**
     * The patient a row belongs to: as the patient table names them, or only by id when that row has not been seen;
     * null for a table without a patient column or a row without a patient.
     */
    public PatientIdentity of(String sourceId, Map<String, String> row, TableProjection projection) {
        if (projection.patientColumn() == null) {
            return null;
        }
        String patientId = row.get(projection.patientColumn());
        if (patientId == null) {
            return null;
        }
        String known = store.get(sourceId + ":" + patientId);
        if (known != null) {
            return PatientIdentity.decode(known);
        }
        return new PatientIdentity(patientId, null, null);
    }
}

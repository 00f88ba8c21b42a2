package org.chartstream.ingest.project;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The patients each source's patient table names, kept in a changelogged store (key {@code source:patientId}) so
 * that a child row's header can name its patient whichever topic is read first, and (a second changelogged store,
 * same key) the rows chunked before their patient's row was read, which must be chunked again once it is: until
 * then their header names no patient and their one-patient filter key is the raw id, so a question about that
 * patient would not find them.
 */
public final class PatientIdentities {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<List<String>> ROW_KEYS = new TypeReference<>() {
    };

    private final KeyValueStore<String, String> store;
    private final KeyValueStore<String, String> awaiting;

    /** @param awaiting per patient not yet named, the row-store keys of the rows chunked without them (a JSON list) */
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
        String key = sourceId + ":" + identity.patientId();
        store.put(key, identity.encode());
        String waiting = awaiting.get(key);
        if (waiting == null) {
            return List.of();
        }
        awaiting.delete(key);
        return decode(waiting);
    }

    /** Notes that {@code rowStoreKey} was chunked while its patient {@code patientId} was not known yet. */
    public void awaitPatient(String sourceId, String patientId, String rowStoreKey) {
        String key = sourceId + ":" + patientId;
        String waiting = awaiting.get(key);
        List<String> rows = waiting == null ? new ArrayList<>() : decode(waiting);
        if (!rows.contains(rowStoreKey)) {
            rows.add(rowStoreKey);
            try {
                awaiting.put(key, JSON.writeValueAsString(rows));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("cannot encode the rows awaiting a patient", e);
            }
        }
    }

    private static List<String> decode(String encoded) {
        try {
            return new ArrayList<>(JSON.readValue(encoded, ROW_KEYS));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("corrupt list of rows awaiting a patient in the ingest state store", e);
        }
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

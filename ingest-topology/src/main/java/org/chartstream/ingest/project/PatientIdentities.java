package org.chartstream.ingest.project;

import java.util.Map;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The patients each source's patient table names, kept in a changelogged store (key {@code source:patientId}) so
 * that a child row's header can name its patient whichever topic is read first.
 */
public final class PatientIdentities {
    private final KeyValueStore<String, String> store;

    public PatientIdentities(KeyValueStore<String, String> store) {
        this.store = store;
    }

    /** Keeps a patient-table row's identity; a row without a patient id names nobody. */
    public void remember(String sourceId, PatientIdentity identity) {
        if (identity.patientId() != null) {
            store.put(sourceId + ":" + identity.patientId(), identity.encode());
        }
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

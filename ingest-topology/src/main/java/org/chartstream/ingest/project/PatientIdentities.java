package org.chartstream.ingest.project;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The patients each source's patient table names, kept in a changelogged store (key {@code source:patientId}) so
 * that a child row's header can name its patient whichever topic is read first, and two indexes of child rows by
 * patient ({@link RowsByPatient}, changelogged, one entry per row):
 * <ul>
 *   <li>the rows chunked before their patient's row was read, which must be chunked again once it is: until then
 *   their header names no patient and their one-patient filter key is the raw id, so a question about that patient
 *   would not find them;</li>
 *   <li>every indexed child row under the patient it names now, so that when the patient's name or number changes
 *   its rows can be chunked again under the new header. A patient whose identity changed gets a cursor (key
 *   {@code source:patientId}, value the last row chunked again, {@code ""} before the first) that the caller walks
 *   a row at a time, so that a patient with many rows is spread over as many transactions as it needs.</li>
 * </ul>
 * A deleted patient's row leaves both in place: its children still name it, and keep the identity they were
 * indexed with until they change or the patient's row comes back with another one.
 */
public final class PatientIdentities {
    private final KeyValueStore<String, String> store;
    private final RowsByPatient awaiting;
    private final RowsByPatient children;
    private final KeyValueStore<String, String> renamed;

    /**
     * @param awaiting the rows chunked without their patient
     * @param children every indexed child row, under the patient it names
     * @param renamed  the patients whose rows are still to be chunked again under a changed identity, with the last
     *                 row done
     */
    public PatientIdentities(KeyValueStore<String, String> store, KeyValueStore<String, String> awaiting,
                             KeyValueStore<String, String> children, KeyValueStore<String, String> renamed) {
        this.store = store;
        this.awaiting = new RowsByPatient(awaiting);
        this.children = new RowsByPatient(children);
        this.renamed = renamed;
    }

    /** A child row of a patient whose identity changed, still to be chunked again. */
    public record RenamedChild(String sourceId, String patientId, String rowStoreKey) {
    }

    /**
     * Keeps a patient-table row's identity; a row without a patient id names nobody. When the patient was known with
     * another name or number (what a child's header and filter key show), its child rows are queued to be chunked
     * again ({@link #nextRenamedChild}), from the first if an earlier change of it was still being worked off.
     *
     * @return the row-store keys of the rows that were chunked before this patient was known (now forgotten here)
     */
    public List<String> remember(String sourceId, PatientIdentity identity) {
        if (identity.patientId() == null) {
            return List.of();
        }
        String key = sourceId + ":" + identity.patientId();
        String previous = store.get(key);
        if (previous != null && !PatientIdentity.decode(previous).equals(identity)) {
            renamed.put(key, "");
        }
        store.put(key, identity.encode());
        return awaiting.take(sourceId, identity.patientId());
    }

    /** Notes that {@code rowStoreKey} was chunked while its patient {@code patientId} was not known yet. */
    public void awaitPatient(String sourceId, String patientId, String rowStoreKey) {
        awaiting.add(sourceId, patientId, rowStoreKey);
    }

    /**
     * The patient a kept row of a child table names; null for a row of the patient table itself (its own change
     * chunks it under the new identity), a table without a patient column, a source without a patient table
     * ({@code idColumns} null), or no row.
     */
    public static String childPatientOf(PatientIdentityColumns idColumns, TableProjection projection, RowImage image) {
        if (image == null || idColumns == null || projection.patientColumn() == null || projection.table().equals(idColumns.table())) {
            return null;
        }
        return image.row().get(projection.patientColumn());
    }

    /**
     * Keeps the index of child rows in step with a row's kept image: the patient it named before (null: the row was
     * not kept, or named nobody) and the one it names now (null: the row is gone, or names nobody). A row that
     * leaves a patient also stops waiting for it.
     */
    public void childMoved(String sourceId, String rowStoreKey, String fromPatientId, String toPatientId) {
        if (fromPatientId != null && !fromPatientId.equals(toPatientId)) {
            children.remove(sourceId, fromPatientId, rowStoreKey);
            awaiting.remove(sourceId, fromPatientId, rowStoreKey);
        }
        if (toPatientId != null) {
            // written again when it names the same patient: a row indexed before this index existed joins it so
            children.add(sourceId, toPatientId, rowStoreKey);
        }
    }

    /**
     * The next child row to chunk again under its patient's changed identity, in patient then row-key order; the
     * patient's cursor moves past it (and is dropped after the patient's last row). Empty once none is left.
     */
    public Optional<RenamedChild> nextRenamedChild() {
        while (true) {
            KeyValue<String, String> cursor;
            try (KeyValueIterator<String, String> it = renamed.all()) {
                if (!it.hasNext()) {
                    return Optional.empty();
                }
                cursor = it.next();
            }
            int colon = cursor.key.indexOf(':');
            String sourceId = cursor.key.substring(0, colon);
            String patientId = cursor.key.substring(colon + 1);
            Optional<String> next = children.after(sourceId, patientId, cursor.value);
            if (next.isPresent()) {
                renamed.put(cursor.key, next.get());
                return Optional.of(new RenamedChild(sourceId, patientId, next.get()));
            }
            renamed.delete(cursor.key);
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

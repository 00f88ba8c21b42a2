package org.chartstream.ingest.project;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.streams.state.KeyValueStore;
import org.chartstream.core.binding.TableBinding;

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
 *
 * <p>A table bound to reach its patient through an encounter ({@code TableBinding.patientVia}) names the encounter's
 * number only: the encounter table's rows are kept here as encounter → patient id (key {@link #encounterKey}), and
 * such a row's patient is its encounter's. A deleted encounter's row leaves its patient in place, as a patient's does.
 */
public final class PatientIdentities {
    private final KeyValueStore<String, String> store;
    private final RowsByGroup awaiting;
    private final RowGroups children;
    private final KeyValueStore<String, String> encounters;

    /**
     * @param awaiting   the rows chunked without their patient
     * @param children   every indexed child row, under the patient it names
     * @param renamed    the patients whose rows are still to be chunked again under a changed identity, with the last
     *                   row done
     * @param encounters encounter → patient id
     */
    public PatientIdentities(KeyValueStore<String, String> store, KeyValueStore<String, String> awaiting,
                             KeyValueStore<String, String> children, KeyValueStore<String, String> renamed,
                             KeyValueStore<String, String> encounters) {
        this.store = store;
        this.awaiting = new RowsByGroup(awaiting);
        this.children = new RowGroups(children, renamed);
        this.encounters = encounters;
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
        String key = patientKey(sourceId, identity.patientId());
        String previous = store.get(key);
        if (previous != null && !PatientIdentity.decode(previous).equals(identity)) {
            children.changed(key);
        }
        store.put(key, identity.encode());
        return awaiting.take(key);
    }

    /**
     * Keeps an encounter-table row's patient (by the encounter's number column, else its encounter column).
     *
     * @return the encounter's key ({@link #encounterKey}) when its patient is new or changed: the rows reaching their
     * patient through it are to be chunked again; empty otherwise
     */
    public Optional<String> rememberEncounter(String sourceId, TableBinding encounterTable, Map<String, String> row) {
        String number = row.get(encounterTable.numberColumn() != null ? encounterTable.numberColumn() : encounterTable.encounterColumn());
        String patientId = encounterTable.patientColumn() == null ? null : row.get(encounterTable.patientColumn());
        if (number == null || number.isBlank() || patientId == null) {
            return Optional.empty();
        }
        String key = encounterKey(sourceId, encounterTable.table(), number);
        if (patientId.equals(encounters.get(key))) {
            return Optional.empty();
        }
        encounters.put(key, patientId);
        return Optional.of(key);
    }

    /**
     * The key of an encounter: {@code source:table GS number} (the number trimmed). A row reaching its patient through
     * the encounter names it so; it is also the group under which such rows are found again.
     */
    public static String encounterKey(String sourceId, String encounterTable, String number) {
        return sourceId + ":" + encounterTable + "\u001D" + number.strip();
    }

    /** The encounter a row of a table bound to reach its patient through one names, or null. */
    public static String encounterOf(String sourceId, TableProjection projection, Map<String, String> row) {
        TableBinding binding = projection.binding();
        if (binding.patientVia() == null || binding.encounterColumn() == null) {
            return null;
        }
        String number = row.get(binding.encounterColumn());
        return number == null || number.isBlank() ? null : encounterKey(sourceId, binding.patientVia(), number);
    }

    /** Notes that {@code rowStoreKey} was chunked while its patient {@code patientId} was not known yet. */
    public void awaitPatient(String sourceId, String patientId, String rowStoreKey) {
        awaiting.add(patientKey(sourceId, patientId), rowStoreKey);
    }

    /**
     * The patient a kept row of a child table names; null for a row of the patient table itself (its own change
     * chunks it under the new identity), a table without a patient column or encounter, a source without a patient
     * table ({@code idColumns} null), or no row. A row reaching its patient through an encounter names the patient
     * it was last chunked under ({@link RowImage#viaPatient}).
     */
    public static String childPatientOf(PatientIdentityColumns idColumns, TableProjection projection, RowImage image) {
        if (image == null || idColumns == null || projection.table().equals(idColumns.table())) {
            return null;
        }
        if (projection.patientColumn() == null) {
            return image.viaPatient();
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
            children.remove(patientKey(sourceId, fromPatientId), rowStoreKey);
            awaiting.remove(patientKey(sourceId, fromPatientId), rowStoreKey);
        }
        if (toPatientId != null) {
            // written again when it names the same patient: a row indexed before this index existed joins it so
            children.add(patientKey(sourceId, toPatientId), rowStoreKey);
        }
    }

    /**
     * The next child row to chunk again under its patient's changed identity, in patient then row-key order; the
     * patient's cursor moves past it (and is dropped after the patient's last row). Empty once none is left.
     */
    public Optional<RenamedChild> nextRenamedChild() {
        return children.nextChanged().map(member -> {
            int colon = member.group().indexOf(':');
            return new RenamedChild(member.group().substring(0, colon), member.group().substring(colon + 1), member.rowStoreKey());
        });
    }

    /** True once the patient table's row of {@code patientId} has been read. */
    public boolean known(String sourceId, String patientId) {
        return store.get(patientKey(sourceId, patientId)) != null;
    }

    /**
     * The id of the patient a row belongs to: its patient column's, else (a table reaching its patient through an
     * encounter) its encounter's patient once the encounter's row has been read; null otherwise.
     */
    public String patientIdOf(String sourceId, Map<String, String> row, TableProjection projection) {
        if (projection.patientColumn() != null) {
            return row.get(projection.patientColumn());
        }
        String encounter = encounterOf(sourceId, projection, row);
        return encounter == null ? null : encounters.get(encounter);
    }

    /**
     * The patient a row belongs to: as the patient table names them, or only by id when that row has not been seen;
     * null for a row without a patient (none, or an encounter not read yet).
     */
    public PatientIdentity of(String sourceId, Map<String, String> row, TableProjection projection) {
        String patientId = patientIdOf(sourceId, row, projection);
        if (patientId == null) {
            return null;
        }
        String known = store.get(patientKey(sourceId, patientId));
        if (known != null) {
            return PatientIdentity.decode(known);
        }
        return new PatientIdentity(patientId, null, null);
    }

    private static String patientKey(String sourceId, String patientId) {
        return sourceId + ":" + patientId;
    }
}

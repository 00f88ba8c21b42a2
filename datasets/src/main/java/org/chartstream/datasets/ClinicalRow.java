package org.chartstream.datasets;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** One generated row of the clinical source database. */
public sealed interface ClinicalRow permits PatientRow, EncounterRow, ConditionRow, MedicationRow, ClinicalNoteRow {

    /** The table this row belongs to (one of {@link ClinicalSchema#TABLES}). */
    String table();

    /** The value of the table's primary-key column. */
    Object primaryKey();

    /** The patient this row belongs to (for patients: the row's own id). */
    UUID patientId();

    /** The row's values in the order of the table's data columns ({@link ClinicalSchema#dataColumns}). */
    List<Object> valueList();

    /** Column name to value, in DDL column order (audit columns excluded). */
    default Map<String, Object> values() {
        List<String> cols = ClinicalSchema.dataColumns(table());
        List<Object> vals = valueList();
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < cols.size(); i++) {
            m.put(cols.get(i), vals.get(i));
        }
        return m;
    }

    /** Builds a typed row from column values (as produced by {@link #values()}, or their string forms). */
    static ClinicalRow fromValues(String table, Map<String, ?> values) {
        ClinicalSchema.Table t = ClinicalSchema.table(table);
        Object[] v = t.dataColumns().stream().map(c -> c.type().parse(values.get(c.name()))).toArray();
        switch (table) {
            case ClinicalSchema.PATIENTS: return PatientRow.of(v);
            case ClinicalSchema.ENCOUNTERS: return EncounterRow.of(v);
            case ClinicalSchema.CONDITIONS: return ConditionRow.of(v);
            case ClinicalSchema.MEDICATIONS: return MedicationRow.of(v);
            case ClinicalSchema.CLINICAL_NOTES: return ClinicalNoteRow.of(v);
            default: throw new IllegalArgumentException(table);
        }
    }
}

package org.chartstream.ingest.project;

import java.util.List;
import java.util.Set;

/**
 * Which fields of a registered table may leave the source side.
 *
 * @param fields        allow-listed fields in text order; empty means every field not excluded
 * @param excluded      fields that never leave the source side, whatever the allow-list says
 * @param patientColumn the column holding the patient id (the patients table's own key for that table), or null
 */
public record TableProjection(String table, List<String> fields, Set<String> excluded, String patientColumn) {
    public TableProjection {
        fields = List.copyOf(fields);
        excluded = Set.copyOf(excluded);
    }

    public boolean allows(String field) {
        return !excluded.contains(field) && (fields.isEmpty() || fields.contains(field));
    }
}

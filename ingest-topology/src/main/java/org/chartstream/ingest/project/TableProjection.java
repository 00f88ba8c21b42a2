package org.chartstream.ingest.project;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.chartstream.core.binding.EmbedPolicy;
import org.chartstream.core.binding.TableBinding;
import org.chartstream.core.binding.TableRole;

/**
 * Which fields of a registered table may leave the source side.
 *
 * @param fields        allow-listed fields in text order; empty means every field not excluded
 * @param excluded      fields that never leave the source side, whatever the allow-list says
 * @param patientColumn the column holding the patient id (the patients table's own key for that table), or null
 * @param binding       the table's binding (role, labels, dictionaries, time, embedding policy)
 */
public record TableProjection(String table, List<String> fields, Set<String> excluded, String patientColumn,
                              TableBinding binding) {
    public TableProjection {
        fields = List.copyOf(fields);
        excluded = Set.copyOf(excluded);
        if (binding == null) {
            binding = new TableBinding(table, TableRole.EVENT, List.of(), patientColumn, null, null, null, List.of(),
                    null, List.of(), null, fields, List.copyOf(excluded), Map.of(), Map.of(), List.of(), null, null,
                    EmbedPolicy.ROW);
        }
    }

    /** A table bound by nothing but its field list, exclusions and patient column. */
    public TableProjection(String table, List<String> fields, Set<String> excluded, String patientColumn) {
        this(table, fields, excluded, patientColumn, null);
    }

    /** The projection a table's binding describes. */
    public static TableProjection of(TableBinding binding) {
        return new TableProjection(binding.table(), binding.fields(), Set.copyOf(binding.excluded()),
                binding.patientColumn(), binding);
    }

    public boolean allows(String field) {
        return !excluded.contains(field) && (fields.isEmpty() || fields.contains(field));
    }
}

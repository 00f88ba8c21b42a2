package org.chartstream.runtime.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.chartstream.core.binding.EmbedPolicy;
import org.chartstream.core.binding.SourceBinding;
import org.chartstream.core.binding.TableBinding;
import org.chartstream.core.binding.TableRole;

/** Each registered source's {@link SourceBinding}, from the configuration. */
public final class SourceBindings {
    private SourceBindings() {
    }

    /** The binding of source {@code id}: its tables from {@code source.tables}, the patient table from the patient keys. */
    public static SourceBinding of(ChartstreamConfig config, String id) {
        String patientTable = config.sourceValue(id, "patient-table");
        String patientId = config.sourceValue(id, "patient-id-column");
        String number = config.sourceValue(id, "patient-number-column");
        List<TableBinding> tables = new ArrayList<>();
        for (String table : config.sourceList(id, "tables")) {
            boolean patients = table.equals(patientTable);
            tables.add(new TableBinding(table, patients ? TableRole.PATIENT : TableRole.EVENT, List.of(), patientId, null,
                    null, patients && !number.isEmpty() ? number : null,
                    patients ? config.sourceList(id, "patient-name-columns") : List.of(), null, List.of(), null,
                    config.allowedFields(id, table), List.of(), Map.of(), Map.of(), List.of(), null, null, EmbedPolicy.ROW));
        }
        return SourceBinding.of(tables);
    }

    /** Every registered source's binding, by source id, in configuration order. */
    public static Map<String, SourceBinding> all(ChartstreamConfig config) {
        Map<String, SourceBinding> bindings = new java.util.LinkedHashMap<>();
        config.sourceIds().forEach(id -> bindings.put(id, of(config, id)));
        return bindings;
    }
}

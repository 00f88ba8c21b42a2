package org.chartstream.runtime.config;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.chartstream.core.binding.EmbedPolicy;
import org.chartstream.core.binding.SourceBinding;
import org.chartstream.core.binding.TableBinding;
import org.chartstream.core.binding.TableRole;

/** Each registered source's {@link SourceBinding}, from its binding file or, without one, from the source.* keys. */
public final class SourceBindings {
    private SourceBindings() {
    }

    /**
     * The binding of source {@code id}: its binding file's tables that {@code source.tables} selects, or, without a
     * binding file, its tables from {@code source.tables} and the patient table from the patient keys.
     */
    public static SourceBinding of(ChartstreamConfig config, String id) {
        String location = config.sourceValue(id, "binding");
        List<String> selected = config.sourceList(id, "tables");
        if (!location.isEmpty()) {
            Map<String, TableBinding> bound = new LinkedHashMap<>(BindingFile.read(location).tables());
            bound.keySet().retainAll(selected);
            return new SourceBinding(bound);
        }
        String patientTable = config.sourceValue(id, "patient-table");
        String patientId = config.sourceValue(id, "patient-id-column");
        String number = config.sourceValue(id, "patient-number-column");
        String birthDate = config.sourceValue(id, "patient-birth-date-column");
        Map<String, Set<String>> excluded = excludedFields(config.sourceKey(id, "excluded-fields"),
                config.sourceList(id, "excluded-fields"));
        List<TableBinding> tables = new ArrayList<>();
        for (String table : selected) {
            boolean patients = table.equals(patientTable);
            tables.add(new TableBinding(table, patients ? TableRole.PATIENT : TableRole.EVENT, List.of(), patientId, null,
                    null, patients && !number.isEmpty() ? number : null,
                    patients ? config.sourceList(id, "patient-name-columns") : List.of(),
                    patients && !birthDate.isEmpty() ? birthDate : null, List.of(), null,
                    config.allowedFields(id, table), List.copyOf(excluded.getOrDefault(table, Set.of())), Map.of(),
                    Map.of(), List.of(), null, null, EmbedPolicy.ROW));
        }
        return SourceBinding.of(tables);
    }

    /** Every registered source's binding, by source id, in configuration order. */
    public static Map<String, SourceBinding> all(ChartstreamConfig config) {
        Map<String, SourceBinding> bindings = new LinkedHashMap<>();
        config.sourceIds().forEach(id -> bindings.put(id, of(config, id)));
        return bindings;
    }

    /** {@code table.field} entries grouped by table. */
    static Map<String, Set<String>> excludedFields(String key, List<String> entries) {
        Map<String, Set<String>> excluded = new LinkedHashMap<>();
        for (String tableField : entries) {
            int dot = tableField.indexOf('.');
            if (dot <= 0 || dot == tableField.length() - 1) {
                throw new ConfigException("configuration '" + key + "' entry '" + tableField + "' is not table.field");
            }
            excluded.computeIfAbsent(tableField.substring(0, dot), t -> new HashSet<>()).add(tableField.substring(dot + 1));
        }
        return excluded;
    }
}

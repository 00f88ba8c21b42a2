package org.chartstream.runtime.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.chartstream.core.binding.SourceBinding;
import org.chartstream.core.binding.TableBinding;

/**
 * The source.* keys a binding file sets ({@code source[.<id>].binding}): the patient keys, {@code excluded-fields}
 * and {@code fields.<table>} come from the file, so every reader of those keys sees the binding; setting one of them
 * as well is an error naming both keys. {@code source.tables}, if set, selects bound tables, and the dictionaries and
 * encounter tables the selected ones use come along (so that a run can index part of a dataset).
 */
final class BindingKeys {
    /** The origin of a value derived from a binding file. */
    private static final String DERIVED = "derived from binding file ";
    private static final List<String> FROM_FILE = List.of("patient-table", "patient-id-column", "patient-name-columns",
            "patient-number-column", "patient-birth-date-column", "excluded-fields");

    private BindingKeys() {
    }

    /** Whether a key's value is neither given by the user nor by a dataset (a default, or derived from a binding). */
    static boolean unset(String origin) {
        return origin == null || origin.equals("default") || origin.startsWith(DERIVED);
    }

    /** Replaces the values derived before (the binding or the keys may have changed) by those of the current bindings. */
    static void derive(ChartstreamConfig c, Map<String, String> values, Map<String, String> origins) {
        for (String key : List.copyOf(origins.keySet())) {
            if (origins.get(key).startsWith(DERIVED)) {
                String[] spec = ChartstreamConfig.KEYS.get(key);
                if (spec == null) {
                    values.remove(key);
                    origins.remove(key);
                } else {
                    values.put(key, spec[0]);
                    origins.put(key, "default");
                }
            }
        }
        for (String id : c.sourceIds()) {
            String location = c.sourceValue(id, "binding");
            if (!location.isEmpty()) {
                String bindingKey = values.containsKey(c.sourceKey(id, "binding")) ? c.sourceKey(id, "binding") : "source.binding";
                derive(c, id, bindingKey, BindingFile.read(location), values, origins);
            }
        }
    }

    private static void derive(ChartstreamConfig c, String id, String bindingKey, SourceBinding binding,
                               Map<String, String> values, Map<String, String> origins) {
        String fieldsPrefix = c.singleFlatSource() ? "source.fields." : "source." + id + ".fields.";
        List<String> given = new ArrayList<>(FROM_FILE.stream().map(suffix -> c.sourceKey(id, suffix)).toList());
        origins.keySet().stream().filter(k -> k.startsWith(fieldsPrefix)).forEach(given::add);
        for (String key : given) {
            if (!unset(origins.get(key))) {
                throw new ConfigException("configuration '" + key + "' (from " + origins.get(key) + ") cannot be set together"
                        + " with '" + bindingKey + "' (from " + origins.get(bindingKey) + "): the binding file "
                        + values.get(bindingKey) + " says it (docs/BINDING.md)");
            }
        }
        String tablesKey = c.sourceKey(id, "tables");
        List<String> tables = List.copyOf(binding.tables().keySet());
        if (!unset(origins.get(tablesKey))) {
            tables = selected(binding, c.sourceList(id, "tables"), "'" + tablesKey + "' (from " + origins.get(tablesKey) + ")",
                    values.get(bindingKey));
            values.put(tablesKey, String.join(",", tables));
        } else {
            put(values, origins, tablesKey, String.join(",", tables), values.get(bindingKey));
        }
        String from = values.get(bindingKey);
        List<String> captured = tables;
        TableBinding patients = binding.patientTable().filter(t -> captured.contains(t.table())).orElse(null);
        put(values, origins, c.sourceKey(id, "patient-table"), patients == null ? "" : patients.table(), from);
        put(values, origins, c.sourceKey(id, "patient-id-column"), patients == null ? "" : orEmpty(patients.patientColumn()), from);
        put(values, origins, c.sourceKey(id, "patient-name-columns"), patients == null ? "" : String.join(",", patients.nameColumns()), from);
        put(values, origins, c.sourceKey(id, "patient-number-column"), patients == null ? "" : orEmpty(patients.numberColumn()), from);
        put(values, origins, c.sourceKey(id, "patient-birth-date-column"), patients == null ? "" : orEmpty(patients.birthDateColumn()), from);
        List<TableBinding> bound = tables.stream().map(t -> binding.tables().get(t)).toList();
        put(values, origins, c.sourceKey(id, "excluded-fields"), bound.stream()
                .flatMap(t -> t.excluded().stream().map(column -> t.table() + "." + column)).collect(Collectors.joining(",")), from);
        bound.stream().filter(t -> !t.fields().isEmpty())
                .forEach(t -> put(values, origins, fieldsPrefix + t.table(), String.join(",", t.fields()), from));
    }

    /** The listed tables with the dictionaries they look codes up in and the encounter tables they reach patients through, in binding order. */
    private static List<String> selected(SourceBinding binding, List<String> listed, String tablesSetting, String location) {
        List<String> needed = new ArrayList<>();
        for (String table : listed) {
            TableBinding t = binding.table(table).orElseThrow(() -> new ConfigException("configuration " + tablesSetting
                    + " names table " + table + ", which binding file " + location + " does not bind"));
            needed.add(table);
            t.lookups().forEach(lookup -> needed.add(lookup.dictionary()));
            if (t.patientVia() != null) {
                needed.add(t.patientVia());
            }
        }
        return binding.tables().keySet().stream().filter(needed::contains).toList();
    }

    private static void put(Map<String, String> values, Map<String, String> origins, String key, String value, String location) {
        values.put(key, value);
        origins.put(key, DERIVED + location);
    }

    private static String orEmpty(String value) {
        return value == null ? "" : value;
    }
}

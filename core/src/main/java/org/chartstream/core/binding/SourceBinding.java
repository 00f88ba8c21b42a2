package org.chartstream.core.binding;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A source's tables as its binding file describes them, in file order (which is the snapshot order). Cross-references
 * are checked here: a lookup names a dictionary table, a table reached through an encounter names the encounter table,
 * at most one patient table.
 */
public record SourceBinding(Map<String, TableBinding> tables) {
    public SourceBinding {
        tables = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(tables));
        long patientTables = tables.values().stream().filter(t -> t.role() == TableRole.PATIENT).count();
        if (patientTables > 1) {
            throw new IllegalArgumentException("a source binds at most one patient table, got " + patientTables);
        }
        for (TableBinding t : tables.values()) {
            for (CodeLookup lookup : t.lookups()) {
                TableBinding dictionary = tables.get(lookup.dictionary());
                if (dictionary == null || dictionary.role() != TableRole.DICTIONARY) {
                    throw new IllegalArgumentException("table " + t.table() + " looks codes up in " + lookup.dictionary()
                            + ", which is not a dictionary table of the binding");
                }
            }
            if (t.patientVia() != null) {
                TableBinding via = tables.get(t.patientVia());
                if (via == null || via.role() != TableRole.ENCOUNTER || t.encounterColumn() == null) {
                    throw new IllegalArgumentException("table " + t.table() + " reaches its patient through " + t.patientVia()
                            + ", which needs to be an encounter table of the binding and an encounter column on " + t.table());
                }
            }
        }
    }

    public static SourceBinding of(Collection<TableBinding> tables) {
        Map<String, TableBinding> byName = new LinkedHashMap<>();
        tables.forEach(t -> byName.put(t.table(), t));
        return new SourceBinding(byName);
    }

    public Optional<TableBinding> table(String name) {
        return Optional.ofNullable(tables.get(name));
    }

    public Optional<TableBinding> patientTable() {
        return tables.values().stream().filter(t -> t.role() == TableRole.PATIENT).findFirst();
    }

    public Optional<TableBinding> encounterTable() {
        return tables.values().stream().filter(t -> t.role() == TableRole.ENCOUNTER).findFirst();
    }

    /** Every table whose rows are indexed (all but dictionaries), in binding order. */
    public List<TableBinding> indexed() {
        return tables.values().stream().filter(t -> t.role() != TableRole.DICTIONARY).toList();
    }

    public List<TableBinding> dictionaries() {
        return tables.values().stream().filter(t -> t.role() == TableRole.DICTIONARY).toList();
    }
}

package org.chartstream.runtime.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.chartstream.core.binding.CodeLookup;
import org.chartstream.core.binding.EmbedPolicy;
import org.chartstream.core.binding.TableBinding;
import org.chartstream.core.binding.TableRole;
import org.chartstream.runtime.config.BindingFile.BindingLine;

/** One table's lines of a binding file, checked and turned into its {@link TableBinding}. */
final class BoundTable {
    private static final Set<String> ATTRIBUTES = Set.of("role", "key", "patient", "encounter", "via", "number", "name",
            "birth-date", "time", "end", "fields", "exclude", "concept", "concept-field", "embed");
    private static final Set<String> PER_COLUMN = Set.of("label", "terms", "lookup");
    private static final Map<String, Set<TableRole>> ONLY_FOR = Map.of(
            "name", Set.of(TableRole.PATIENT),
            "birth-date", Set.of(TableRole.PATIENT),
            "number", Set.of(TableRole.PATIENT, TableRole.ENCOUNTER),
            "via", Set.of(TableRole.EVENT),
            "encounter", Set.of(TableRole.EVENT),
            "lookup", Set.of(TableRole.PATIENT, TableRole.ENCOUNTER, TableRole.EVENT));

    private record Entry(BindingLine at, String value) {
    }

    private final String table;
    private final BindingLine first;
    private final Map<String, Entry> entries = new LinkedHashMap<>();

    BoundTable(String table, BindingLine first) {
        this.table = table;
        this.first = first;
    }

    void set(BindingLine at, String attribute, String value) {
        String head = attribute.contains(".") ? attribute.substring(0, attribute.indexOf('.')) : attribute;
        if (attribute.contains(".") ? !PER_COLUMN.contains(head) || attribute.endsWith(".") : !ATTRIBUTES.contains(attribute)) {
            throw at.error("unknown attribute '" + attribute + "' (role, key, patient, encounter, via, number, name,"
                    + " birth-date, time, end, fields, exclude, label.<column>, terms.<column>, lookup.<field>, concept,"
                    + " concept-field, embed)");
        }
        Entry earlier = entries.get(attribute);
        if (earlier != null) {
            throw at.error("is set twice (first on line " + earlier.at().line() + ")");
        }
        entries.put(attribute, new Entry(at, value));
    }

    /** This table's role, if its file names a known one (errors about it are the table's own). */
    private TableRole roleOrNull() {
        Entry role = entries.get("role");
        try {
            return role == null ? null : BindingValues.role(role.at(), role.value());
        } catch (ConfigException e) {
            return null;
        }
    }

    TableBinding binding(Map<String, BoundTable> all) {
        Entry roleEntry = entries.get("role");
        if (roleEntry == null) {
            throw first.error("table " + table + " has no role (table." + table + ".role = patient | encounter | event | dictionary)");
        }
        TableRole role = BindingValues.role(roleEntry.at(), roleEntry.value());
        checkRoles(role, all);
        List<String> fields = names("fields");
        List<String> excluded = names("exclude");
        for (String column : excluded) {
            if (fields.contains(column)) {
                throw entries.get("exclude").at().error("lists '" + column + "', which table." + table + ".fields shows");
            }
        }
        List<CodeLookup> lookups = lookups(all, fields);
        String via = name("via");
        if (via != null) {
            BoundTable encounters = all.get(via);
            if (encounters == null || encounters.roleOrNull() != TableRole.ENCOUNTER) {
                throw entries.get("via").at().error("names " + via + ", which is not a table of this file with role encounter");
            }
            if (!entries.containsKey("encounter")) {
                throw entries.get("via").at().error("needs table." + table + ".encounter, the column holding the encounter number");
            }
        }
        Map<String, String> labels = new LinkedHashMap<>();
        Map<String, List<String>> terms = new LinkedHashMap<>();
        entries.forEach((attribute, e) -> {
            if (attribute.startsWith("label.")) {
                labels.put(BindingValues.name(e.at(), column(attribute)), BindingValues.words(e.at(), e.value()));
            } else if (attribute.startsWith("terms.")) {
                terms.put(BindingValues.name(e.at(), column(attribute)), BindingValues.wordList(e.at(), e.value()));
            }
        });
        EmbedPolicy embed = entries.containsKey("embed") ? BindingValues.embed(entries.get("embed").at(), entries.get("embed").value()) : EmbedPolicy.ROW;
        String conceptField = name("concept-field");
        if (!fields.isEmpty()) {
            List<String> shown = new ArrayList<>(fields);
            lookups.forEach(l -> shown.add(l.field()));
            if (conceptField != null) {
                checkShown(shown, "concept-field", conceptField);
            }
            embed.fields().forEach(field -> checkShown(shown, "embed", field));
        }
        return new TableBinding(table, role, names("key"), name("patient"), name("encounter"), via, name("number"),
                names("name"), name("birth-date"), names("time"), name("end"), fields, excluded, labels, terms, lookups,
                entries.containsKey("concept") ? BindingValues.words(entries.get("concept").at(), entries.get("concept").value()) : null,
                conceptField, embed);
    }

    /** The table's {@code lookup.<field>} lines, each naming a dictionary table of the file and a field no shown column has. */
    private List<CodeLookup> lookups(Map<String, BoundTable> all, List<String> fields) {
        List<CodeLookup> lookups = new ArrayList<>();
        entries.forEach((attribute, e) -> {
            if (attribute.startsWith("lookup.")) {
                CodeLookup lookup = BindingValues.lookup(e.at(), BindingValues.name(e.at(), column(attribute)), e.value());
                BoundTable dictionary = all.get(lookup.dictionary());
                if (dictionary == null || dictionary.roleOrNull() != TableRole.DICTIONARY) {
                    throw e.at().error("names dictionary " + lookup.dictionary() + ", which is not a table of this file with role dictionary");
                }
                if (fields.contains(lookup.field())) {
                    throw e.at().error("gives the row field '" + lookup.field() + "', which is a column table." + table
                            + ".fields shows: name the meaning differently");
                }
                lookups.add(lookup);
            }
        });
        return lookups;
    }

    private void checkShown(List<String> shown, String attribute, String field) {
        if (!shown.contains(field)) {
            throw entries.get(attribute).at().error("names '" + field + "', which is neither a shown field nor a lookup field");
        }
    }

    private void checkRoles(TableRole role, Map<String, BoundTable> all) {
        for (Map.Entry<String, Entry> e : entries.entrySet()) {
            String attribute = e.getKey().contains(".") ? e.getKey().substring(0, e.getKey().indexOf('.')) : e.getKey();
            Set<TableRole> roles = ONLY_FOR.get(attribute);
            if (roles != null && !roles.contains(role)) {
                throw e.getValue().at().error("does not apply to a table of role " + role.name().toLowerCase(java.util.Locale.ROOT));
            }
        }
        if (role == TableRole.PATIENT || role == TableRole.ENCOUNTER) {
            String what = role == TableRole.PATIENT ? "a patient table names its patient id column" : "an encounter table names its patient column";
            if (!entries.containsKey("patient")) {
                throw entries.get("role").at().error(what + " (table." + table + ".patient)");
            }
        }
        if (role == TableRole.ENCOUNTER && !entries.containsKey("number")) {
            throw entries.get("role").at().error("an encounter table names its number column (table." + table + ".number), by which"
                    + " event rows name their encounter");
        }
        if (role == TableRole.PATIENT) {
            for (BoundTable other : all.values()) {
                if (other == this) {
                    break;
                }
                if (other.roleOrNull() == TableRole.PATIENT) {
                    throw entries.get("role").at().error("a source has one patient table, and " + other.table + " is one already");
                }
            }
        }
    }

    private static String column(String attribute) {
        return attribute.substring(attribute.indexOf('.') + 1);
    }

    private String name(String attribute) {
        Entry e = entries.get(attribute);
        return e == null ? null : BindingValues.name(e.at(), e.value());
    }

    private List<String> names(String attribute) {
        Entry e = entries.get(attribute);
        return e == null ? List.of() : BindingValues.names(e.at(), e.value());
    }
}

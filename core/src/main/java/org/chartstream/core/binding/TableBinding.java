package org.chartstream.core.binding;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How one source table is read: its role, how its rows reach their patient, its time, the fields it shows and their
 * labels, its codes' dictionaries, what a row of it is (its concept) and what the embedding model reads. Built from a
 * source's binding file; every table and column name of a dataset lives there, never in code.
 *
 * @param table           the table's name at the source
 * @param role            what the table is
 * @param key             its key columns (informational; the change stream carries the key)
 * @param patientColumn   the column holding the patient id (the patient table's own id column for that table), or null
 * @param encounterColumn the column holding the encounter number (an admission), or null
 * @param patientVia      the encounter table through which a row without {@code patientColumn} reaches its patient
 *                        (by {@code encounterColumn}), or null
 * @param numberColumn    for a patient or encounter table: the number people quote and the display, or null
 * @param nameColumns     for a patient table: the columns forming the display name (none: known by number)
 * @param birthDateColumn for a patient table: the birth date column, or null
 * @param timeColumns     the row's time columns, the first being when it happened (latest / earliest / since)
 * @param endColumn       when the row's fact ended (a stop date: none means current), or null
 * @param fields          the columns shown, in text order; empty means every column not excluded
 * @param excluded        columns that never leave the source side
 * @param labels          column (or lookup field) to the label the text and answers show
 * @param fieldTerms      column to extra words that name it in a question ({@code route}: administered, given)
 * @param lookups         the codes resolved through dictionaries
 * @param concept         what one row is, in words ("diagnosis", "medication"), or null
 * @param conceptField    the field naming the row's concept (the drug, the code's meaning), or null
 * @param embed           what of a row the embedding model reads
 */
public record TableBinding(String table, TableRole role, List<String> key, String patientColumn, String encounterColumn,
                           String patientVia, String numberColumn, List<String> nameColumns, String birthDateColumn,
                           List<String> timeColumns, String endColumn, List<String> fields, List<String> excluded,
                           Map<String, String> labels, Map<String, List<String>> fieldTerms, List<CodeLookup> lookups,
                           String concept, String conceptField, EmbedPolicy embed) {
    public TableBinding {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(role, "role");
        key = List.copyOf(key);
        nameColumns = List.copyOf(nameColumns);
        timeColumns = List.copyOf(timeColumns);
        fields = List.copyOf(fields);
        excluded = List.copyOf(excluded);
        labels = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(labels));
        Map<String, List<String>> terms = new LinkedHashMap<>();
        fieldTerms.forEach((column, words) -> terms.put(column, List.copyOf(words)));
        fieldTerms = java.util.Collections.unmodifiableMap(terms);
        lookups = List.copyOf(lookups);
        embed = embed == null ? EmbedPolicy.ROW : embed;
    }

    /** A table of {@code role} with nothing else bound: every column shown, no patient, no time. */
    public static TableBinding plain(String table, TableRole role) {
        return new TableBinding(table, role, List.of(), null, null, null, null, List.of(), null, List.of(), null,
                List.of(), List.of(), Map.of(), Map.of(), List.of(), null, null, EmbedPolicy.ROW);
    }

    /** The label of a column or lookup field: its configured label, else the name with '_' as spaces. */
    public String label(String column) {
        String l = labels.get(column);
        return l != null ? l : column.replace('_', ' ');
    }

    /** The time column events of this table are ordered by, or null. */
    public String timeColumn() {
        return timeColumns.isEmpty() ? null : timeColumns.get(0);
    }

    /** Whether the binding names the column to be shown (an id column it lists is shown, not dropped as opaque). */
    public boolean showsExplicitly(String column) {
        return fields.contains(column) || lookups.stream().anyMatch(l -> l.field().equals(column));
    }
}

package org.chartstream.core.binding;

import java.util.List;
import java.util.Objects;

/**
 * A code column (or composite: code and version) of a table resolved through a dictionary table: the row gains the
 * field {@code field} holding the dictionary row's {@code meaningColumn} ({@code icd_code + icd_version →
 * d_icd_diagnoses.long_title}).
 *
 * @param codeColumns       the row's columns that form the code, in the dictionary key's order
 * @param dictionary        the dictionary table (role {@link TableRole#DICTIONARY})
 * @param dictionaryColumns the dictionary's key columns, matched one by one with {@code codeColumns} (values compared
 *                          trimmed: a {@code CHAR(7)} code is padded)
 * @param meaningColumn     the dictionary column holding the meaning
 * @param field             the name of the field the row gains (its label in the text is the table's label for it)
 */
public record CodeLookup(List<String> codeColumns, String dictionary, List<String> dictionaryColumns,
                         String meaningColumn, String field) {
    public CodeLookup {
        codeColumns = List.copyOf(codeColumns);
        dictionaryColumns = List.copyOf(dictionaryColumns);
        Objects.requireNonNull(dictionary, "dictionary");
        Objects.requireNonNull(meaningColumn, "meaningColumn");
        Objects.requireNonNull(field, "field");
        if (codeColumns.isEmpty() || codeColumns.size() != dictionaryColumns.size()) {
            throw new IllegalArgumentException("a code lookup needs as many code columns as dictionary key columns, got "
                    + codeColumns.size() + " and " + dictionaryColumns.size());
        }
    }
}

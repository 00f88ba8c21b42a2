package org.chartstream.ingest.project;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which columns of a change may be indexed when a table has no field list. The columns a table had when it was
 * first indexed are recorded (they are what the operator reviewed by registering the table); a column added to the
 * source table later is left out of every row until it is allow-listed ({@code source[.<id>].fields.<table>}), so a
 * new {@code ssn} column never flows into the index unreviewed. With a field list the list alone decides, and
 * nothing is recorded or held back.
 */
public final class ColumnPolicy {

    /**
     * @param row        the row image to index: {@code after} without the held-back columns
     * @param known      the table's recorded columns after this change (to store when it differs from before)
     * @param newColumns the held-back columns of this change, in row order (names only, never values)
     */
    public record Admitted(Map<String, String> row, Set<String> known, List<String> newColumns) {
        public Admitted {
            row = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(row));
            known = java.util.Collections.unmodifiableSet(new LinkedHashSet<>(known));
            newColumns = List.copyOf(newColumns);
        }
    }

    private ColumnPolicy() {
    }

    /**
     * @param known the columns recorded when the table was first indexed; empty when it has not been indexed yet
     *              (this change's columns are then recorded)
     */
    public static Admitted admit(TableProjection projection, Set<String> known, Map<String, String> after) {
        if (!projection.fields().isEmpty()) {
            return new Admitted(after, known, List.of());
        }
        if (known.isEmpty()) {
            return new Admitted(after, after.keySet(), List.of());
        }
        Map<String, String> row = new LinkedHashMap<>();
        List<String> held = new ArrayList<>();
        after.forEach((column, value) -> {
            if (known.contains(column)) {
                row.put(column, value);
            } else if (!projection.excluded().contains(column)) {
                held.add(column); // an excluded column never leaves the source side anyway: nothing to review
            }
        });
        return new Admitted(row, known, held);
    }

    public static String encode(Set<String> columns) {
        return String.join("\n", columns);
    }

    /** The recorded columns; empty for null (not recorded yet). */
    public static Set<String> decode(String encoded) {
        return encoded == null || encoded.isEmpty() ? Set.of() : new LinkedHashSet<>(List.of(encoded.split("\n")));
    }
}

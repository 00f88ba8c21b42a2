package org.chartstream.retrieval.plan;

import java.util.List;
import java.util.Objects;
import org.chartstream.core.store.rowset.RowSet;
import org.chartstream.retrieval.SetResult;

/**
 * A question's typed plan over exact row sets: the rows (a table, its patient or admission, the concepts linked from
 * the question, time and "current"), the rows left out by patient ("but never …"), and what is returned about them.
 *
 * @param output        what the question asks for
 * @param table         the table the rows are read from
 * @param rows          the row set
 * @param except        the rows whose patients are left out, or null
 * @param field         the field values are read from (values, top values) or the time column (latest, earliest),
 *                      else null
 * @param topN          for {@link SetResult.Output#TOP_VALUES}: how many
 * @param byPatients    for top values: ranked by patients; for a count: patients counted rather than rows
 * @param concepts      what the question's phrases linked to, in question order
 * @param excluded      what its left-out phrases linked to
 * @param unresolved    the parts of the question the plan could not resolve (the answer is then partial and says so)
 * @param admission     the admission number the question names, or null
 * @param admissionRows the encounter rows of that number (none: no such admission is indexed), or null when the
 *                      question names no admission or no encounter table is bound
 * @param setPatients   a follow-up over a whole set: the set's patient keys, read one patient at a time; else empty
 * @param describe      the rows' qualifiers in words (" of admission 24597018", " since 2149"), or ""
 */
public record SetPlan(SetResult.Output output, BoundTable table, RowSet rows, RowSet except, String field, int topN,
                      boolean byPatients, List<Concept> concepts, List<Concept> excluded, List<String> unresolved,
                      String admission, RowSet admissionRows, List<String> setPatients, String describe) {

    /** A phrase of the question and the concepts it linked to. */
    public record Concept(String phrase, String via, List<String> values) {
        public Concept {
            values = List.copyOf(values);
        }

        /** "statin: Atorvastatin, Simvastatin" as the answer names it. */
        public String named() {
            return phrase + " (" + (via.equals(ConceptLinker.BY_WORDS) ? "" : via + ": ") + String.join(", ", values) + ")";
        }

        /** Linked by similarity of meaning, not by the phrase's words or a drug class. */
        public boolean approximate() {
            return via.equals(ConceptLinker.BY_MEANING);
        }

        @Override
        public String toString() {
            return "Concept[" + values.size() + " value(s) via " + via + "]";
        }
    }

    public SetPlan {
        Objects.requireNonNull(output, "output");
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(rows, "rows");
        concepts = List.copyOf(concepts);
        excluded = List.copyOf(excluded);
        unresolved = List.copyOf(unresolved);
        setPatients = List.copyOf(setPatients);
    }

    /** Every concept value the set was built from, included and left out. */
    public List<String> conceptNames() {
        return java.util.stream.Stream.concat(concepts.stream(), excluded.stream()).map(Concept::named).toList();
    }

    /** Sizes only: the plan holds the question's words. */
    @Override
    public String toString() {
        return "SetPlan[" + output + " over " + table + ", " + rows.predicates().size() + " predicate(s), except "
                + (except != null) + ", " + unresolved.size() + " unresolved]";
    }
}

package org.chartstream.retrieval.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.chartstream.core.store.rowset.RowSetResult;
import org.chartstream.core.store.rowset.RowSetRow;
import org.chartstream.core.store.rowset.ValueCount;
import org.chartstream.retrieval.SetResult;

/** The words of a set answer: what was counted, the concepts it was built from, and the lines of values and rows. */
final class SetText {
    /** The most concept values named in the text (the structured result holds them all). */
    private static final int NAMED_CONCEPTS = 40;

    private final SetPlan plan;

    SetText(SetPlan plan) {
        this.plan = plan;
    }

    String patients(RowSetResult found) {
        return plural(found.patients(), "patient") + " (" + plural(found.rows(), recordWord()) + ")" + counted() + ":";
    }

    String count(RowSetResult found) {
        String what = plan.byPatients() ? plural(found.patients(), "patient") + " (" + plural(found.rows(), recordWord()) + ")"
                : plural(found.rows(), recordWord()) + " (" + plural(found.patients(), "patient") + ")";
        return what + counted() + ".";
    }

    String values(RowSetResult found) {
        StringBuilder out = new StringBuilder(label(plan.field()) + " over " + plural(found.rows(), recordWord()) + counted() + ": ");
        List<String> shown = new ArrayList<>();
        for (ValueCount v : found.values()) {
            shown.add(v.value() + " (" + plural(v.rows(), "record") + ", " + plural(v.patients(), "patient") + ")");
        }
        out.append(shown.isEmpty() ? "no value recorded" : String.join("; ", shown)).append('.');
        if (found.rowsWithoutValue() > 0) {
            out.append(" ").append(plural(found.rowsWithoutValue(), "record")).append(found.rowsWithoutValue() == 1 ? " holds" : " hold")
                    .append(" no ").append(label(plan.field())).append('.');
        }
        return out.toString();
    }

    String top(RowSetResult found, List<ValueCount> kept) {
        StringBuilder out = new StringBuilder("the " + kept.size() + " most frequent " + label(plan.field()) + " values by "
                + (plan.byPatients() ? "patients" : recordWord() + "s") + ", over " + plural(found.rows(), recordWord())
                + counted() + ":");
        int rank = 1;
        for (ValueCount v : kept) {
            out.append("\n").append(rank++).append(". ").append(v.value()).append(" — ").append(plural(v.patients(), "patient"))
                    .append(", ").append(plural(v.rows(), "record"));
        }
        return out.toString();
    }

    String extreme(RowSetResult found) {
        String which = plan.output() == SetResult.Output.LATEST ? "the latest" : "the earliest";
        return which + " of " + plural(found.rows(), recordWord()) + counted() + " by " + label(plan.field()) + ":";
    }

    String rows(RowSetResult found, List<ValueCount> distinct) {
        String head = plural(found.rows(), recordWord()) + counted();
        if (plan.field() != null && !distinct.isEmpty()) {
            head += "; " + plural(distinct.size(), "distinct " + label(plan.field())) + ": "
                    + String.join("; ", distinct.stream().map(ValueCount::value).toList());
        }
        return head + ":";
    }

    String overSet(int patients, String field) {
        return label(field) + " of each of the " + plural(patients, "patient") + " of the previous answer:";
    }

    /** " since 2149 with "hypertension" (Essential hypertension, …)": the qualifiers and (Essential hypertension, …)" naming what the set was built from, and what it left out. */
    private String counted() {
        StringBuilder out = new StringBuilder(plan.describe());
        if (!plan.concepts().isEmpty()) {
            out.append(" with ").append(String.join(" or ", plan.concepts().stream().map(this::named).toList()));
        }
        if (!plan.excluded().isEmpty()) {
            out.append(", leaving out every patient with ").append(String.join(" or ", plan.excluded().stream().map(this::named).toList()));
        }
        return out.toString();
    }

    private String named(SetPlan.Concept c) {
        List<String> values = c.values();
        String listed = String.join(", ", values.subList(0, Math.min(NAMED_CONCEPTS, values.size())))
                + (values.size() > NAMED_CONCEPTS ? " and " + (values.size() - NAMED_CONCEPTS) + " more" : "");
        return "\"" + c.phrase() + "\" (" + (c.via().equals(ConceptLinker.BY_WORDS) ? "" : c.via() + ": ") + listed + ")";
    }

    private String recordWord() {
        return RecordKinds.recordWord(plan.table().binding()) + " record";
    }

    private String label(String field) {
        return field == null ? "value" : plan.table().binding().label(field);
    }

    /** A patient as a list names them: the label the ingest gave, else the key. */
    static String patient(RowSetRow row) {
        String shown = row.patient() == null ? null : row.patient().display();
        return shown != null ? shown : "patient " + row.patientKey();
    }

    /** A row's fields with their labels: "route: PO; dose: 500 mg". */
    static String row(BoundTable table, RowSetRow row) {
        List<String> parts = new ArrayList<>();
        for (Map.Entry<String, String> f : row.fields().entrySet()) {
            parts.add(table.binding().label(f.getKey()) + ": " + f.getValue());
        }
        String who = row.patient() == null || row.patient().display() == null ? "" : row.patient().display() + " — ";
        return who + String.join("; ", parts);
    }

    static String plural(long n, String word) {
        return n + " " + (n == 1 ? word : word.endsWith("s") ? word : word + "s");
    }
}

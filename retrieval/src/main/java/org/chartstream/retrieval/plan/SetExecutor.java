package org.chartstream.retrieval.plan;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.core.store.rowset.RowSet;
import org.chartstream.core.store.rowset.RowSetOutput;
import org.chartstream.core.store.rowset.RowSetQuery;
import org.chartstream.core.store.rowset.RowSetResult;
import org.chartstream.core.store.rowset.RowSetRow;
import org.chartstream.core.store.rowset.ValueCount;
import org.chartstream.retrieval.Completeness;
import org.chartstream.retrieval.SetResult;
import org.chartstream.retrieval.generate.Passage;
import org.chartstream.retrieval.search.SearchIndex;

/**
 * Runs a {@link SetPlan} on the index's exact row sets and gives the answer: the counts, values or rows, the concepts
 * counted, the rows cited (one per listed patient, or each listed row, up to the citation cap), and a completeness
 * that is COMPLETE only when every list holds the whole set the plan asked for.
 */
public final class SetExecutor {
    /** The most rows read to list a set's patients; a larger set is listed in part and said so. */
    public static final int MAX_ROWS_READ = 100_000;
    /** The most values listed. */
    public static final int MAX_VALUES = 10_000;
    /** The most patients of a follow-up set read one at a time. */
    public static final int MAX_SET_PATIENTS = 200;

    private final SearchIndex index;
    private final int citationCap;
    private final int maxPassageChars;

    /**
     * @param citationCap     the most rows an answer lists and cites ({@code query.cohort-cap})
     * @param maxPassageChars longest passage quoted
     */
    public SetExecutor(SearchIndex index, int citationCap, int maxPassageChars) {
        this.index = index;
        this.citationCap = citationCap;
        this.maxPassageChars = maxPassageChars;
    }

    public SetAnswer execute(SetPlan plan) {
        if (plan.admissionRows() != null && index.rowSet(RowSetQuery.of(plan.admissionRows(), new RowSetOutput.Count())).rows() == 0) {
            return SetAnswer.refused("the question names admission " + plan.admission() + ", but no indexed admission has that number");
        }
        SetText text = new SetText(plan);
        List<String> gaps = new ArrayList<>();
        long unjudged = index.rowsWithoutFields(plan.rows().filter());
        if (unjudged > 0) {
            gaps.add(unjudged + " rows of the table were indexed before rows carried their fields (a re-index judges them)");
        }
        java.util.stream.Stream.concat(plan.concepts().stream(), plan.excluded().stream()).filter(SetPlan.Concept::approximate)
                .forEach(c -> gaps.add("\"" + c.phrase() + "\" was matched to the concepts nearest in meaning, not by its words:"
                        + " check the concepts named"));
        if (!plan.setPatients().isEmpty()) {
            return overSet(plan, text, gaps);
        }
        return switch (plan.output()) {
            case PATIENTS -> patients(plan, text, gaps);
            case COUNT -> count(plan, text, gaps);
            case VALUES -> values(plan, text, gaps);
            case TOP_VALUES -> top(plan, text, gaps);
            case LATEST, EARLIEST -> extreme(plan, text, gaps);
            case ROWS -> rows(plan, text, gaps);
        };
    }

    private RowSetResult run(SetPlan plan, RowSetOutput output) {
        RowSetQuery query = RowSetQuery.of(plan.rows(), output);
        return index.rowSet(plan.except() == null ? query : query.except(plan.except(), RowSetQuery.ExceptBy.PATIENT));
    }

    private SetAnswer patients(SetPlan plan, SetText text, List<String> gaps) {
        RowSetResult found = run(plan, new RowSetOutput.Rows(MAX_ROWS_READ));
        if (found.capped()) {
            gaps.add("only the patients of the first " + found.listedRows().size() + " of " + found.rows() + " rows are listed");
        }
        Map<String, List<RowSetRow>> byKey = new LinkedHashMap<>();
        found.listedRows().stream().filter(r -> r.patientKey() != null)
                .forEach(r -> byKey.computeIfAbsent(r.patientKey(), k -> new ArrayList<>()).add(r));
        List<List<RowSetRow>> byPatient = byKey.values().stream()
                .sorted(Comparator.comparing((List<RowSetRow> rows) -> patientShown(rows.get(0)))).toList();
        List<Passage> passages = new ArrayList<>();
        StringBuilder lines = new StringBuilder();
        for (List<RowSetRow> rows : byPatient) {
            lines.append("\n- ").append(SetText.patient(rows.get(0))).append(':');
            rows.forEach(row -> lines.append(cite(row, passages)));
        }
        boolean complete = gaps.isEmpty();
        List<String> listed = byPatient.stream().map(rows -> patientShown(rows.get(0))).toList();
        SetResult set = new SetResult(SetResult.Output.PATIENTS, null, found.rows(), found.patients(), listed,
                complete ? byPatient.stream().map(rows -> rows.get(0).patientKey()).toList() : List.of(), List.of(), List.of(), plan.conceptNames(), complete);
        return answer(plan, text.patients(found) + lines, passages, set, gaps);
    }

    private SetAnswer count(SetPlan plan, SetText text, List<String> gaps) {
        RowSetResult found = run(plan, new RowSetOutput.Count());
        SetResult set = new SetResult(SetResult.Output.COUNT, null, found.rows(), found.patients(), List.of(), List.of(),
                List.of(), List.of(), plan.conceptNames(), gaps.isEmpty());
        return answer(plan, text.count(found), List.of(), set, gaps);
    }

    private SetAnswer values(SetPlan plan, SetText text, List<String> gaps) {
        RowSetResult found = run(plan, new RowSetOutput.DistinctValues(plan.field(), MAX_VALUES));
        if (found.capped()) {
            gaps.add("only the first " + found.values().size() + " of " + found.total() + " values are listed");
        }
        SetResult set = new SetResult(SetResult.Output.VALUES, plan.field(), found.rows(), found.patients(), List.of(),
                List.of(), values(found.values()), List.of(), plan.conceptNames(), gaps.isEmpty());
        return answer(plan, text.values(found), List.of(), set, gaps);
    }

    private SetAnswer top(SetPlan plan, SetText text, List<String> gaps) {
        RowSetResult found = run(plan, new RowSetOutput.DistinctValues(plan.field(), ConceptVocabulary.MAX_VALUES));
        if (found.capped()) {
            gaps.add("the field has more than " + ConceptVocabulary.MAX_VALUES + " distinct values; only those were ranked");
        }
        List<ValueCount> ranked = found.values().stream().sorted(Comparator.comparingLong((ValueCount v) -> measure(plan, v))
                .reversed().thenComparing(ValueCount::value)).toList();
        int n = Math.min(plan.topN(), ranked.size());
        List<ValueCount> kept = ranked.subList(0, n);
        long tied = n == 0 ? 0 : ranked.stream().skip(n).filter(v -> measure(plan, v) == measure(plan, kept.get(n - 1))).count();
        String tie = tied == 0 ? "" : "\n(" + SetText.plural(tied, "more value") + " tie with the last one listed.)";
        SetResult set = new SetResult(SetResult.Output.TOP_VALUES, plan.field(), found.rows(), found.patients(), List.of(),
                List.of(), values(kept), List.of(), plan.conceptNames(), gaps.isEmpty());
        return answer(plan, text.top(found, kept) + tie, List.of(), set, gaps);
    }

    private static long measure(SetPlan plan, ValueCount v) {
        return plan.byPatients() ? v.patients() : v.rows();
    }

    private SetAnswer extreme(SetPlan plan, SetText text, List<String> gaps) {
        RowSetOutput.End end = plan.output() == SetResult.Output.LATEST ? RowSetOutput.End.LATEST : RowSetOutput.End.EARLIEST;
        RowSetResult found = run(plan, new RowSetOutput.Extreme(plan.field(), end, false, citationCap));
        if (found.capped()) {
            gaps.add("only " + found.listedRows().size() + " of " + found.total() + " tied rows are listed");
        }
        return listing(plan, text.extreme(found), found, List.of(), gaps);
    }

    private SetAnswer rows(SetPlan plan, SetText text, List<String> gaps) {
        RowSetResult found = run(plan, new RowSetOutput.Rows(citationCap));
        if (found.capped()) {
            gaps.add("only the first " + found.listedRows().size() + " of " + found.rows() + " rows are listed (query.cohort-cap)");
        }
        List<ValueCount> distinct = List.of();
        if (plan.field() != null) {
            RowSetResult values = run(plan, new RowSetOutput.DistinctValues(plan.field(), MAX_VALUES));
            distinct = values.values();
            if (values.capped()) {
                gaps.add("only the first " + distinct.size() + " of " + values.total() + " distinct values are listed");
            }
        }
        return listing(plan, text.rows(found, distinct), found, distinct, gaps);
    }

    private SetAnswer listing(SetPlan plan, String head, RowSetResult found, List<ValueCount> distinct, List<String> gaps) {
        List<Passage> passages = new ArrayList<>();
        StringBuilder lines = new StringBuilder(head);
        for (RowSetRow row : found.listedRows()) {
            lines.append("\n- ").append(SetText.row(plan.table(), row)).append(cite(row, passages));
        }
        SetResult set = new SetResult(plan.output(), plan.field(), found.rows(), found.patients(), List.of(), List.of(),
                values(distinct), found.listedRows().stream().map(r -> r.row().id()).toList(), plan.conceptNames(), gaps.isEmpty());
        return answer(plan, lines.toString(), passages, set, gaps);
    }

    /** A follow-up over a previous whole set: the field's values read for each of its patients. */
    private SetAnswer overSet(SetPlan plan, SetText text, List<String> gaps) {
        String field = plan.field() != null ? plan.field() : plan.table().binding().conceptField();
        if (field == null) {
            return SetAnswer.refused("the records the question asks about name no value to list per patient");
        }
        List<String> keys = plan.setPatients();
        if (keys.size() > MAX_SET_PATIENTS) {
            gaps.add("only the first " + MAX_SET_PATIENTS + " of the " + keys.size() + " patients are read");
            keys = keys.subList(0, MAX_SET_PATIENTS);
        }
        Map<String, long[]> union = new java.util.TreeMap<>();
        StringBuilder lines = new StringBuilder();
        List<Passage> passages = new ArrayList<>();
        List<String> listed = new ArrayList<>();
        long rows = 0;
        long patients = 0;
        for (String key : keys) {
            RowSet mine = new RowSet(plan.rows().filter().withPatient(key), plan.rows().predicates());
            RowSetResult values = index.rowSet(RowSetQuery.of(mine, new RowSetOutput.DistinctValues(field, MAX_VALUES)));
            RowSetResult first = index.rowSet(RowSetQuery.of(mine, new RowSetOutput.Rows(1)));
            rows += values.rows();
            patients += values.patients();
            String shown = first.listedRows().isEmpty() ? "patient " + key : patientShown(first.listedRows().get(0));
            listed.add(shown);
            values.values().forEach(v -> union.computeIfAbsent(v.value(), x -> new long[2])[0] += v.rows());
            values.values().forEach(v -> union.get(v.value())[1]++);
            lines.append("\n- ").append(first.listedRows().isEmpty() ? shown : SetText.patient(first.listedRows().get(0)))
                    .append(": ").append(values.values().isEmpty() ? "none"
                            : String.join("; ", values.values().stream().map(ValueCount::value).toList()));
            first.listedRows().forEach(r -> lines.append(cite(r, passages)));
        }
        List<SetResult.Value> all = new ArrayList<>();
        union.forEach((v, c) -> all.add(new SetResult.Value(v, c[0], c[1])));
        SetResult set = new SetResult(SetResult.Output.VALUES, field, rows, patients, listed, List.of(), all, List.of(),
                plan.conceptNames(), gaps.isEmpty());
        return answer(plan, text.overSet(keys.size(), field) + lines, passages, set, gaps);
    }

    /**
     * The answer and its label. The lists may hold the whole executed set ({@link SetResult#complete}: what a follow-up
     * over "they" is scoped to) while the label still says PARTIAL: a set built from concepts linked by the question's
     * words, a drug class or a brand holds every record of the concepts it names, but a record that words the same
     * thing otherwise (a synonym, a brand or a procedure title the words do not reach) is not in it, and "complete"
     * would promise that it is.
     */
    private SetAnswer answer(SetPlan plan, String body, List<Passage> passages, SetResult set, List<String> found) {
        List<String> gaps = new ArrayList<>(found);
        java.util.stream.Stream.concat(plan.concepts().stream(), plan.excluded().stream()).filter(c -> !c.approximate())
                .forEach(c -> gaps.add("\"" + c.phrase() + "\" counts the records of the concepts named; a record that"
                        + " words it otherwise (a synonym, a brand, another title) is not counted"));
        Completeness completeness = gaps.isEmpty()
                ? new Completeness(Completeness.Kind.COMPLETE, "the exact set the question asks for, read from every indexed row", null)
                : new Completeness(Completeness.Kind.PARTIAL, String.join("; ", gaps), null);
        String text = gaps.isEmpty() ? "Complete: " + body : "Partial (" + completeness.reason() + "): " + body;
        return new SetAnswer(text, passages, set, completeness, null);
    }

    /** " [n]" citing the row, or "" past the citation cap or when the row's chunks are gone. */
    private String cite(RowSetRow row, List<Passage> passages) {
        if (passages.size() >= citationCap) {
            return "";
        }
        List<StoredChunk> chunks = index.rowChunks(row.row());
        if (chunks.isEmpty()) {
            return "";
        }
        StoredChunk head = chunks.get(0);
        String quoted = head.text().length() <= maxPassageChars ? head.text()
                : head.text().substring(0, maxPassageChars).stripTrailing() + " …";
        passages.add(new Passage(passages.size() + 1, head, 1.0, quoted));
        return " [" + passages.size() + "]";
    }

    private static List<SetResult.Value> values(List<ValueCount> counts) {
        return counts.stream().map(v -> new SetResult.Value(v.value(), v.rows(), v.patients())).toList();
    }

    /** How a listed patient is named: the patient number when there is one, else the display name, else the key. */
    static String patientShown(RowSetRow row) {
        if (row.patient() != null && row.patient().number() != null) {
            return row.patient().number();
        }
        if (row.patient() != null && row.patient().display() != null) {
            return row.patient().display();
        }
        return row.patientKey();
    }
}

package org.chartstream.retrieval.cohort;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.core.store.TableRef;
import org.chartstream.core.store.TermIndex;
import org.chartstream.retrieval.gate.QuestionAnchors;
import org.chartstream.retrieval.plan.WholeSets;

/**
 * Decides whether a question is a cohort question and, if so, finds every row holding its anchor by exact term
 * lookup ({@link TermIndex}), not a ranked top k. A drug or condition word no record holds is looked up as the
 * nearest indexed word when one is one or two edits away ("lisinoprl" as "lisinopril", said so in the answer), and
 * refused otherwise; an absent code, or an absent drug of two words ("lithium carbonate"), is refused. A drug
 * question's rows are looked up in the tables named for medications, a condition question's in those named for
 * conditions, when the index has such tables holding the term and the request names no table ("Which patients take
 * lisinopril?" lists prescriptions, not every note that mentions the drug).
 */
public final class CohortStage {
    /** Default of {@code query.cohort-cap}: the most rows a cohort answer lists. */
    public static final int DEFAULT_CAP = 500;

    private static final List<String> DRUG_TABLE_WORDS = List.of("medication", "prescription", "drug");
    private static final List<String> CONDITION_TABLE_WORDS = List.of("condition", "diagnos", "problem");

    private final TermIndex terms;
    private final Supplier<Set<TableRef>> tables;
    private final int cap;
    private final WholeSets wholeSets;

    /**
     * @param terms  the store's exact-term lookups, or {@code null} when it has none (every question is then ranked)
     * @param tables the tables the index holds
     * @param cap    the most rows a cohort answer lists ({@code query.cohort-cap})
     */
    public CohortStage(TermIndex terms, Supplier<Set<TableRef>> tables, int cap) {
        this(terms, tables, cap, null);
    }

    /** @param wholeSets the whole-set planner asked before the cohort lookup, or null for none */
    public CohortStage(TermIndex terms, Supplier<Set<TableRef>> tables, int cap, WholeSets wholeSets) {
        if (cap < 1) {
            throw new IllegalArgumentException("query.cohort-cap must be >= 1, got " + cap);
        }
        this.terms = terms;
        this.tables = tables;
        this.cap = cap;
        this.wholeSets = wholeSets;
    }

    /** The whole-set planner asked before the cohort lookup, or null when none is configured. */
    public WholeSets wholeSets() {
        return wholeSets;
    }

    public int cap() {
        return cap;
    }

    public CohortPlan plan(String question, RetrievalFilter filter) {
        return plan(question, filter, List.of());
    }

    /** @param patientNumbers the question's words (folded) that name a patient by number ({@link CohortQuestion#of}) */
    public CohortPlan plan(String question, RetrievalFilter filter, List<String> patientNumbers) {
        Optional<CohortQuestion> asked = CohortQuestion.of(question, patientNumbers);
        if (terms == null || asked.isEmpty()) {
            return new CohortPlan.Ranked();
        }
        CohortQuestion cohort = asked.get();
        RetrievalFilter within = filter == null ? RetrievalFilter.NONE : filter;
        String anchor = cohort.anchor();
        String misspelt = null;
        if (!heldAsWritten(anchor)) {
            // a code is exact, and a drug of two words ("lithium carbonate") is not one the dictionary of words holds
            int edits = cohort.kind() == CohortQuestion.Kind.CODE || anchor.indexOf(' ') >= 0 ? 0 : maxEdits(anchor);
            List<String> similar = edits == 0 ? List.of() : terms.similarWords(anchor, edits, 1);
            if (similar.isEmpty()) {
                return new CohortPlan.Refused(cohort.kind() == CohortQuestion.Kind.CODE
                        ? "the question names a code that no indexed record holds"
                        : "the question names a drug or condition that no indexed record mentions");
            }
            misspelt = anchor;
            anchor = similar.get(0);
        }
        List<String> narrowed = within.tables().isEmpty() ? narrowedTables(cohort.kind(), anchor, within) : List.of();
        RetrievalFilter scope = narrowed.isEmpty() ? within : within.withTables(narrowed);
        TermIndex.TermRows found = terms.rowsWithTerm(anchor, scope, cap);
        List<StoredChunk> rows = writing(anchor, found.rows());
        if (rows.isEmpty()) {
            return new CohortPlan.Refused("no record within the request's filter holds the term the question names");
        }
        long total = found.total() - (found.rows().size() - rows.size());
        return new CohortPlan.Listed(new Cohort(anchor, misspelt, narrowed, rows, total, cap));
    }

    /** Whether a record writes the word itself, not only a word the store analyses alike ("lisinoprill" is stemmed to "lisinopril"). */
    private boolean heldAsWritten(String anchor) {
        return !writing(anchor, terms.rowsWithTerm(anchor, RetrievalFilter.NONE, cap).rows()).isEmpty();
    }

    /** The rows that write {@code anchor} as a whole word (the store matches analysed, stemmed terms). */
    private static List<StoredChunk> writing(String anchor, List<StoredChunk> rows) {
        List<QuestionAnchors.Anchor> word = List.of(new QuestionAnchors.Anchor(anchor, List.of(QuestionAnchors.fold(anchor).split("\\s+"))));
        return rows.stream().filter(r -> QuestionAnchors.mentionsAll(word, r.text())).toList();
    }

    /** Edits allowed for a suggestion, by word length: none up to 3 letters, one up to 5, two beyond (Elasticsearch's "AUTO" fuzziness). */
    static int maxEdits(String word) {
        return word.length() <= 3 ? 0 : word.length() <= 5 ? 1 : 2;
    }

    private List<String> narrowedTables(CohortQuestion.Kind kind, String anchor, RetrievalFilter within) {
        List<String> words = switch (kind) {
            case DRUG -> DRUG_TABLE_WORDS;
            case CONDITION -> CONDITION_TABLE_WORDS;
            case CODE -> List.of();
        };
        if (words.isEmpty()) {
            return List.of();
        }
        List<String> named = tables.get().stream().map(TableRef::table).distinct().sorted()
                .filter(t -> words.stream().anyMatch(w -> t.toLowerCase(Locale.ROOT).contains(w))).toList();
        return !named.isEmpty() && terms.rowsWithTerm(anchor, within.withTables(named), 1).total() > 0 ? named : List.of();
    }
}

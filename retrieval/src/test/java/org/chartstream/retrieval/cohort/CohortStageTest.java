package org.chartstream.retrieval.cohort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.core.store.TableRef;
import org.chartstream.core.store.TermIndex;
import org.chartstream.retrieval.gate.QuestionAnchors;
import org.junit.jupiter.api.Test;

class CohortStageTest {

    /** Whole-word, folded matching over rows held in memory; similar words from a fixed list. */
    record MemoryTerms(List<StoredChunk> rows, List<String> similar) implements TermIndex {
        @Override
        public TermRows rowsWithTerm(String term, RetrievalFilter filter, int cap) {
            List<QuestionAnchors.Anchor> anchor = List.of(new QuestionAnchors.Anchor(term, List.of(QuestionAnchors.fold(term).split("\\s+"))));
            List<StoredChunk> matching = rows.stream().filter(filter::matches)
                    .filter(r -> QuestionAnchors.mentionsAll(anchor, r.text()))
                    .sorted(Comparator.comparing(r -> r.row().id())).toList();
            return new TermRows(matching.subList(0, Math.min(cap, matching.size())), matching.size());
        }

        @Override
        public List<String> similarWords(String word, int maxEdits, int max) {
            return similar;
        }
    }

    private static final List<StoredChunk> ROWS = rows();

    private static List<StoredChunk> rows() {
        List<StoredChunk> rows = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            rows.add(CohortTest.row("medications", "m" + i, "p" + i, "Patient " + i, "description: Lisinopril 10 MG"));
        }
        rows.add(CohortTest.row("clinical_notes", "n1", "p9", "Patient 9", "plan: stop lisinopril"));
        rows.add(CohortTest.row("medications", "m9", "p9", "Patient 9", "description: Calcium Carbonate 500 MG Oral Tablet"));
        rows.add(CohortTest.row("conditions", "c1", "p1", "Patient 1", "icd10 code: E11.9"));
        rows.add(CohortTest.row("conditions", "c2", "p2", "Patient 2", "icd10 code: E11.91"));
        return rows;
    }

    private static Set<TableRef> tables() {
        return ROWS.stream().map(r -> r.row().tableRef()).collect(Collectors.toSet());
    }

    private static CohortStage stage(List<String> similar, int cap) {
        return new CohortStage(new MemoryTerms(ROWS, similar), CohortStageTest::tables, cap);
    }

    @Test
    void aDrugCohortListsEveryPrescriptionNotTheNotesThatMentionTheDrug() {
        CohortPlan plan = stage(List.of(), 500).plan("Which patients take lisinopril?", RetrievalFilter.NONE);

        assertThat(plan).isInstanceOfSatisfying(CohortPlan.Listed.class, listed -> {
            assertThat(listed.cohort().rows()).hasSize(6).allSatisfy(r -> assertThat(r.row().table()).isEqualTo("medications"));
            assertThat(listed.cohort().tables()).containsExactly("medications");
            assertThat(listed.cohort().capped()).isFalse();
        });
    }

    @Test
    void theRequestsTableFilterIsKeptAndACodeMatchesWhole() {
        CohortPlan plan = stage(List.of(), 500).plan("Which patients have a condition with ICD-10 code E11.9?",
                RetrievalFilter.forTables("conditions"));
        assertThat(plan).isInstanceOfSatisfying(CohortPlan.Listed.class, listed ->
                assertThat(listed.cohort().rows()).extracting(r -> r.row().rowKey()).containsExactly("c1"));
        assertThat(stage(List.of(), 500).plan("Which patients take lisinopril?", RetrievalFilter.forTables("clinical_notes")))
                .isInstanceOfSatisfying(CohortPlan.Listed.class, listed ->
                        assertThat(listed.cohort().rows()).extracting(r -> r.row().rowKey()).containsExactly("n1"));
    }

    @Test
    void theCapCutsTheListAndKeepsTheTotal() {
        CohortPlan plan = stage(List.of(), 4).plan("Which patients take lisinopril?", RetrievalFilter.NONE);
        assertThat(plan).isInstanceOfSatisfying(CohortPlan.Listed.class, listed -> {
            assertThat(listed.cohort().rows()).hasSize(4);
            assertThat(listed.cohort().total()).isEqualTo(6);
            assertThat(listed.cohort().capped()).isTrue();
        });
        assertThatThrownBy(() -> stage(List.of(), 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aWordNoRecordHoldsIsSearchedAsTheNearestIndexedWordOrRefused() {
        assertThat(stage(List.of("Lisinopril"), 500).plan("Which patients take lisinoprl?", RetrievalFilter.NONE))
                .isInstanceOfSatisfying(CohortPlan.Listed.class, listed -> {
                    assertThat(listed.cohort().asked()).isEqualTo("lisinoprl");
                    assertThat(listed.cohort().anchor()).isEqualTo("Lisinopril");
                    assertThat(listed.cohort().rows()).hasSize(6);
                });
        assertThat(stage(List.of(), 500).plan("Which patient has been prescribed zolmitriptan?", RetrievalFilter.NONE))
                .isEqualTo(new CohortPlan.Refused("the question names a drug or condition that no indexed record mentions"));
        assertThat(stage(List.of("E11.9"), 500).plan("Which patient has a condition with ICD-10 code G35?", RetrievalFilter.NONE))
                .as("codes are never corrected")
                .isEqualTo(new CohortPlan.Refused("the question names a code that no indexed record holds"));
        assertThat(stage(List.of(), 500).plan("Which patients take lisinopril?", RetrievalFilter.forPatient("p7")))
                .isInstanceOf(CohortPlan.Refused.class);
    }

    @Test
    void aDrugNameOfTwoWordsIsLookedUpAsAPhraseAndNeverCorrected() {
        assertThat(stage(List.of(), 500).plan("Which patients take calcium carbonate?", RetrievalFilter.NONE))
                .isInstanceOfSatisfying(CohortPlan.Listed.class, listed ->
                        assertThat(listed.cohort().rows()).extracting(r -> r.row().rowKey()).containsExactly("m9"));
        assertThat(stage(List.of("Lisinopril"), 500).plan("Which patient has been prescribed lithium carbonate?", RetrievalFilter.NONE))
                .isEqualTo(new CohortPlan.Refused("the question names a drug or condition that no indexed record mentions"));
    }

    @Test
    void aWordTheStoreOnlyMatchesByItsStemIsNotHeldAndIsSearchedAsTheWordRecordsWrite() {
        MemoryTerms words = new MemoryTerms(ROWS, List.of("Lisinopril"));
        // a stemming store: "lisinoprill" is analysed to "lisinopril"
        TermIndex stemming = new TermIndex() {
            @Override
            public TermRows rowsWithTerm(String term, RetrievalFilter filter, int cap) {
                return words.rowsWithTerm(term.replaceAll("ll$", "l"), filter, cap);
            }

            @Override
            public List<String> similarWords(String word, int maxEdits, int max) {
                return words.similarWords(word, maxEdits, max);
            }
        };
        CohortPlan plan = new CohortStage(stemming, CohortStageTest::tables, 500).plan("Which patients take lisinoprill?",
                RetrievalFilter.NONE);

        assertThat(plan).isInstanceOfSatisfying(CohortPlan.Listed.class, listed -> {
            assertThat(listed.cohort().asked()).isEqualTo("lisinoprill");
            assertThat(listed.cohort().rows()).hasSize(6);
        });
    }

    @Test
    void otherQuestionsAndStoresWithoutTermLookupsTakeTheRankedPath() {
        assertThat(stage(List.of(), 500).plan("What brought Patient Nine to the clinic?", RetrievalFilter.NONE))
                .isInstanceOf(CohortPlan.Ranked.class);
        assertThat(new CohortStage(null, Set::of, 500).plan("Which patients take lisinopril?", RetrievalFilter.NONE))
                .isInstanceOf(CohortPlan.Ranked.class);
    }

    @Test
    void suggestionsNeedLongerWordsForMoreEdits() {
        assertThat(CohortStage.maxEdits("abc")).isZero();
        assertThat(CohortStage.maxEdits("gout")).isEqualTo(1);
        assertThat(CohortStage.maxEdits("lisinoprl")).isEqualTo(2);
    }
}

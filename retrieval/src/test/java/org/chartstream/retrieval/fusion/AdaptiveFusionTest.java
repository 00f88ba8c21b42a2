package org.chartstream.retrieval.fusion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.chartstream.retrieval.TestCandidates.lexicalList;
import static org.chartstream.retrieval.TestCandidates.vectorList;

import java.util.List;
import org.chartstream.retrieval.Candidate;
import org.chartstream.core.store.ChunkFixture;
import org.chartstream.retrieval.TestCandidates;
import org.junit.jupiter.api.Test;

class AdaptiveFusionTest {
    // the embedding rates every row of the asked kind alike; BM25 finds the one row holding the code
    private static final List<Candidate> FLAT_VECTOR = vectorList(List.of("other1", "other2", "coded", "other3", "far"),
            0.52, 0.515, 0.51, 0.505, 0.30);
    private static final List<Candidate> CODE_LEXICAL = lexicalList(List.of("coded", "other1", "other2", "other3", "far"),
            25.0, 3.1, 3.0, 2.9, 2.0);

    // lay words that many rows share: BM25 scores its first places alike; the embedding finds the paraphrased row
    private static final List<Candidate> FLAT_LEXICAL = lexicalList(List.of("lay1", "lay2", "lay3", "lay4", "far"),
            6.0, 5.9, 5.8, 5.7, 1.0);
    private static final List<Candidate> PEAKED_VECTOR = vectorList(List.of("meant", "lay1", "lay2", "lay3", "far"),
            0.80, 0.41, 0.40, 0.39, 0.30);

    @Test
    void standOutIsOneMinusTheMeanNormalisedScoreOfTheNextPlaces() {
        // normalised: 1, 0.05, 0.04, 0.03, 0 -> places 2..5 mean 0.03
        assertThat(AdaptiveFusion.standOut(CODE_LEXICAL, Candidate::lexicalScore)).isCloseTo(1 - (1.1 + 1.0 + 0.9 + 0) / 23 / 4, within(1e-12));
        assertThat(AdaptiveFusion.standOut(List.of(), Candidate::vectorScore)).isZero();
        assertThat(AdaptiveFusion.standOut(vectorList(List.of("a"), 0.7), Candidate::vectorScore)).isEqualTo(1.0);
        assertThat(AdaptiveFusion.standOut(vectorList(List.of("a", "b"), 0.7, 0.7), Candidate::vectorScore)).isZero();
    }

    @Test
    void anExactMatchFarAheadOnTheLexicalSideMovesTheWeightToLexical() {
        double w = AdaptiveFusion.vectorWeight(FLAT_VECTOR, CODE_LEXICAL);
        assertThat(w).isLessThan(0.3);
        assertThat(TestCandidates.rowKey(AdaptiveFusion.fuseAll("which row?", List.of(FLAT_VECTOR), List.of(CODE_LEXICAL)).get(0))).isEqualTo("coded");
    }

    @Test
    void aParaphraseTheEmbeddingSingledOutWinsWhereTheFixedWeightLetsFlatLexicalScoresDecide() {
        assertThat(AdaptiveFusion.vectorWeight(PEAKED_VECTOR, FLAT_LEXICAL)).isGreaterThan(0.6);
        assertThat(TestCandidates.rowKey(AdaptiveFusion.fuseAll("which row?", List.of(PEAKED_VECTOR), List.of(FLAT_LEXICAL)).get(0))).isEqualTo("meant");
        // fixed 0.4: lay1 0.4 · 0.22 + 0.6 · 1 = 0.688 beats meant 0.4 · 1 = 0.4
        assertThat(TestCandidates.rowKey(NormalizedScoreFusion.fuse(PEAKED_VECTOR, FLAT_LEXICAL, 0.4).get(0))).isEqualTo("lay1");
    }

    @Test
    void theWeightIsTheStandOutShareAndTheSymmetricCaseGetsOneHalf() {
        double v = AdaptiveFusion.standOut(PEAKED_VECTOR, Candidate::vectorScore);
        double l = AdaptiveFusion.standOut(FLAT_LEXICAL, Candidate::lexicalScore);
        assertThat(AdaptiveFusion.vectorWeight(PEAKED_VECTOR, FLAT_LEXICAL)).isCloseTo(v / (v + l), within(1e-12));
        List<Candidate> sameShapeLexical = lexicalList(List.of("meant", "lay1", "lay2", "lay3", "far"), 8.0, 4.1, 4.0, 3.9, 3.0);
        assertThat(AdaptiveFusion.vectorWeight(PEAKED_VECTOR, sameShapeLexical)).isCloseTo(0.5, within(1e-12));
    }

    @Test
    void withoutLexicalHitsTheVectorSideDecidesAndWithNeitherThePriorStands() {
        assertThat(AdaptiveFusion.vectorWeight(PEAKED_VECTOR, List.of())).isEqualTo(1.0);
        assertThat(AdaptiveFusion.vectorWeight(List.of(), List.of())).isEqualTo(AdaptiveFusion.PRIOR_VECTOR_WEIGHT);
        assertThat(AdaptiveFusion.fuseAll("which row?", List.of(PEAKED_VECTOR), List.of(List.of())))
                .extracting(TestCandidates::rowKey).containsExactly("meant", "lay1", "lay2", "lay3", "far");
    }

    @Test
    void theFirstVariantSetsTheWeightForEveryVariant() {
        List<Candidate> fused = AdaptiveFusion.fuseAll("which row?", List.of(FLAT_VECTOR, PEAKED_VECTOR), List.of(CODE_LEXICAL, FLAT_LEXICAL));
        double w = AdaptiveFusion.vectorWeight(FLAT_VECTOR, CODE_LEXICAL);
        assertThat(fused).extracting(Candidate::fusedScore).containsExactlyElementsOf(
                NormalizedScoreFusion.fuseAll(List.of(FLAT_VECTOR, PEAKED_VECTOR), List.of(CODE_LEXICAL, FLAT_LEXICAL), w)
                        .stream().map(Candidate::fusedScore).toList());
    }

    @Test
    void aQuestionNamingACodeOrAPersonQuartersTheVectorWeightWhenTheFirstLexicalRowMentionsIt() {
        List<Candidate> vector = vectorList(List.of("other", "named"), 0.9, 0.3);
        List<Candidate> lexical = List.of(
                lexicalHit("named", "patient: Anna Lopez (MRN-000007)\ncondition: diabetes, code E11.9", 9.0, 1),
                lexicalHit("other", "patient: Tom Reed\ncondition: asthma", 1.0, 2));
        // both sides stand out alike: w = 0.5 (a tie at 0.5 without an anchor); anchored w = 0.125: named 0.875
        assertThat(AdaptiveFusion.vectorWeight(vector, lexical)).isCloseTo(0.5, within(1e-12));
        assertThat(AdaptiveFusion.fuseAll("What brought Anna Lopez in?", List.of(vector), List.of(lexical)))
                .extracting(TestCandidates::rowKey).containsExactly("named", "other");
        assertThat(AdaptiveFusion.fuseAll("Who has ICD-10 code E11.9?", List.of(vector), List.of(lexical)).get(0).fusedScore())
                .isCloseTo(1 - 0.125, within(1e-12));
        assertThat(AdaptiveFusion.fuseAll("what brought her in?", List.of(vector), List.of(lexical)).get(0).fusedScore())
                .isCloseTo(0.5, within(1e-12));
    }

    @Test
    void anAnchorTheFirstLexicalRowDoesNotMentionLeavesTheWeightAsTheListsSetIt() {
        // a capitalised disease name BM25 did not find (misspelt in the question): no exact match to trust
        List<Candidate> vector = vectorList(List.of("meant", "other"), 0.9, 0.3);
        List<Candidate> lexical = List.of(
                lexicalHit("other", "research on the causes of a syndrome", 9.0, 1),
                lexicalHit("meant", "antiphospholipid syndrome: what causes it (seen in Anna Lopez)", 1.0, 2));
        String question = "What causes Antiphosoholipid Syndrome?";
        assertThat(org.chartstream.retrieval.gate.QuestionAnchors.of(question)).isNotEmpty();
        assertThat(AdaptiveFusion.fuseAll(question, List.of(vector), List.of(lexical)).get(0).fusedScore())
                .isCloseTo(0.5, within(1e-12));
        // a later lexical row mentioning it does not count: the first row is what BM25 trusts most
        assertThat(AdaptiveFusion.fuseAll("What causes antiphospholipid syndrome in Anna Lopez?", List.of(vector),
                List.of(lexical)).get(0).fusedScore()).isCloseTo(0.5, within(1e-12));
    }

    private static Candidate lexicalHit(String rowKey, String text, double score, int rank) {
        return Candidate.lexicalHit(ChunkFixture.of("ehr", "notes", rowKey).text(text).build(), score, rank);
    }
}

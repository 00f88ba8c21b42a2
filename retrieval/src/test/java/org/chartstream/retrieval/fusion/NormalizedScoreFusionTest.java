package org.chartstream.retrieval.fusion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.chartstream.retrieval.TestCandidates.lexicalList;
import static org.chartstream.retrieval.TestCandidates.vectorList;

import java.util.List;
import org.chartstream.retrieval.Candidate;
import org.chartstream.retrieval.TestCandidates;
import org.junit.jupiter.api.Test;

class NormalizedScoreFusionTest {

    @Test
    void combinesMinMaxNormalisedScoresWithTheVectorWeight() {
        List<Candidate> fused = NormalizedScoreFusion.fuse(vectorList(List.of("a", "b", "c"), 0.9, 0.7, 0.5),
                lexicalList(List.of("b", "d"), 12, 4), 0.4);
        // a: 0.4·1; b: 0.4·0.5 + 0.6·1; c: 0.4·0; d: 0.6·0
        assertThat(fused).extracting(TestCandidates::rowKey).containsExactly("b", "a", "c", "d");
        assertThat(fused).extracting(Candidate::fusedRank).containsExactly(1, 2, 3, 4);
        assertThat(fused.get(0).fusedScore()).isCloseTo(0.8, within(1e-12));
        assertThat(fused.get(1).fusedScore()).isCloseTo(0.4, within(1e-12));
        assertThat(fused.get(0).vectorRank()).isEqualTo(2);
        assertThat(fused.get(0).vectorScore()).isEqualTo(0.7);
        assertThat(fused.get(0).lexicalRank()).isEqualTo(1);
        assertThat(fused.get(0).lexicalScore()).isEqualTo(12);
        assertThat(fused.get(1).lexicalRank()).isZero();
    }

    @Test
    void anExactMatchFarAheadOnOneSideOutranksNearTiesOnTheOther() {
        // BM25 puts the coded row far ahead; the embedding scores every row of that kind alike
        List<Candidate> vector = vectorList(List.of("other1", "other2", "coded", "other3"), 0.52, 0.515, 0.51, 0.30);
        List<Candidate> lexical = lexicalList(List.of("coded", "other1", "other2", "other3"), 25.0, 3.1, 3.0, 2.9);
        assertThat(TestCandidates.rowKey(NormalizedScoreFusion.fuse(vector, lexical, 0.4).get(0))).isEqualTo("coded");
        assertThat(TestCandidates.rowKey(ReciprocalRankFusion.fuse(vector, lexical, 60).get(0))).isEqualTo("other1");
    }

    @Test
    void aListOfEqualScoresNormalisesToOneAndVariantsKeepTheBestScorePerSide() {
        List<Candidate> fused = NormalizedScoreFusion.fuseAll(
                List.of(vectorList(List.of("a", "b"), 0.5, 0.5), vectorList(List.of("b", "a"), 0.9, 0.1)),
                List.of(List.of(), List.of()), 1.0);
        assertThat(fused).extracting(Candidate::fusedScore).containsExactly(1.0, 1.0);
        assertThat(fused).extracting(TestCandidates::rowKey).containsExactly("a", "b");
        assertThat(fused).extracting(Candidate::vectorRank).containsExactly(1, 1);
        assertThat(fused).extracting(Candidate::vectorScore).containsExactly(0.5, 0.9);
    }

    @Test
    void rejectsAWeightOutsideZeroToOne() {
        assertThatThrownBy(() -> NormalizedScoreFusion.fuse(List.of(), List.of(), 1.5)).isInstanceOf(IllegalArgumentException.class);
    }
}

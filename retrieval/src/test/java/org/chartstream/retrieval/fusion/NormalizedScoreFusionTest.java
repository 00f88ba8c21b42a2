package org.chartstream.retrieval.fusion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.chartstream.retrieval.fusion.NormalizedScoreFusion.ScoredId;
import org.junit.jupiter.api.Test;

class NormalizedScoreFusionTest {
    private static ScoredId s(String id, double score) {
        return new ScoredId(id, score);
    }

    @Test
    void combinesMinMaxNormalisedScoresWithTheVectorWeight() {
        List<FusedCandidate> fused = NormalizedScoreFusion.fuse(List.of(s("a", 0.9), s("b", 0.7), s("c", 0.5)),
                List.of(s("b", 12), s("d", 4)), 0.4);
        // a: 0.4·1; b: 0.4·0.5 + 0.6·1; c: 0.4·0; d: 0.6·0
        assertThat(fused).extracting(FusedCandidate::id).containsExactly("b", "a", "c", "d");
        assertThat(fused.get(0).score()).isCloseTo(0.8, within(1e-12));
        assertThat(fused.get(1).score()).isCloseTo(0.4, within(1e-12));
        assertThat(fused.get(0).vectorRank()).isEqualTo(2);
        assertThat(fused.get(0).lexicalRank()).isEqualTo(1);
        assertThat(fused.get(1).lexicalRank()).isZero();
    }

    @Test
    void anExactMatchFarAheadOnOneSideOutranksNearTiesOnTheOther() {
        // BM25 puts the coded row far ahead; the embedding scores every row of that kind alike
        List<ScoredId> vector = List.of(s("other1", 0.52), s("other2", 0.515), s("coded", 0.51), s("other3", 0.30));
        List<ScoredId> lexical = List.of(s("coded", 25.0), s("other1", 3.1), s("other2", 3.0), s("other3", 2.9));
        assertThat(NormalizedScoreFusion.fuse(vector, lexical, 0.4).get(0).id()).isEqualTo("coded");
        assertThat(ReciprocalRankFusion.fuse(vector.stream().map(ScoredId::id).toList(),
                lexical.stream().map(ScoredId::id).toList(), 60).get(0).id()).isEqualTo("other1");
    }

    @Test
    void aListOfEqualScoresNormalisesToOneAndVariantsKeepTheBestScorePerSide() {
        List<FusedCandidate> fused = NormalizedScoreFusion.fuseAll(List.of(List.of(s("a", 0.5), s("b", 0.5)), List.of(s("b", 0.9), s("a", 0.1))),
                List.of(List.of(), List.of()), 1.0);
        assertThat(fused).extracting(FusedCandidate::score).containsExactly(1.0, 1.0);
        assertThat(fused).extracting(FusedCandidate::id).containsExactly("a", "b");
        assertThat(fused).extracting(FusedCandidate::vectorRank).containsExactly(1, 1);
    }

    @Test
    void rejectsAWeightOutsideZeroToOne() {
        assertThatThrownBy(() -> NormalizedScoreFusion.fuse(List.of(), List.of(), 1.5)).isInstanceOf(IllegalArgumentException.class);
    }
}

package org.chartstream.retrieval.gate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.chartstream.retrieval.Candidate;
import org.chartstream.retrieval.TestCandidates;
import org.junit.jupiter.api.Test;

class TailTrimTest {
    private static Candidate scored(String rowKey, double rerankScore) {
        return TestCandidates.reranked(TestCandidates.chunk(rowKey), rerankScore);
    }

    @Test
    void dropsCandidatesBelowHalfTheGateThreshold() {
        List<Candidate> reranked = List.of(scored("a", 0.9), scored("b", 0.15), scored("c", 0.149), scored("d", 0.2));

        assertThat(TailTrim.trim(reranked, 0.30)).extracting(TestCandidates::rowKey).containsExactly("a", "b", "d");
    }

    @Test
    void keepsTheBestCandidateWhenAllAreBelow() {
        List<Candidate> reranked = List.of(scored("a", 0.05), scored("b", 0.12), scored("c", 0.01));

        assertThat(TailTrim.trim(reranked, 0.30)).extracting(TestCandidates::rowKey).containsExactly("b");
    }

    @Test
    void nothingInNothingOutAndNoTrimWithoutAPositiveThreshold() {
        assertThat(TailTrim.trim(List.of(), 0.30)).isEmpty();
        List<Candidate> negative = List.of(scored("a", -0.5), scored("b", -0.9));
        assertThat(TailTrim.trim(negative, 0.0)).hasSize(2);
    }
}

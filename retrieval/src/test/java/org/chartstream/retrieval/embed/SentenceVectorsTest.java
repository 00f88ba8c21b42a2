package org.chartstream.retrieval.embed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.chartstream.core.store.ChunkFixture;
import org.chartstream.core.store.SearchHit;
import org.chartstream.core.store.StoredChunk;
import org.junit.jupiter.api.Test;

class SentenceVectorsTest {
    private static final StoredChunk A = ChunkFixture.of("ehr", "notes", "a").build();
    private static final StoredChunk B = ChunkFixture.of("ehr", "notes", "b").build();
    private static final StoredChunk C = ChunkFixture.of("ehr", "notes", "c").build();

    @Test
    void offOrAQuestionOfOneSentenceAddsNoTextToEmbed() {
        assertThat(SentenceVectors.OFF.sentences("Is it inherited? Is there a test?")).isEmpty();
        assertThat(SentenceVectors.MAX.sentences("Is it inherited?")).isEmpty();
        assertThat(SentenceVectors.MEAN.sentences("Is it inherited? Is there a test?"))
                .containsExactly("Is it inherited?", "Is there a test?");
    }

    @Test
    void theMeanWeighsEveryVectorAlikeWhateverItsLength() {
        float[] mean = SentenceVectors.meanOfUnits(List.of(new float[] {3, 0}, new float[] {0, 0.5f}));
        assertThat(mean[0]).isCloseTo((float) Math.sqrt(0.5), within(1e-6f));
        assertThat(mean[1]).isCloseTo((float) Math.sqrt(0.5), within(1e-6f));
        assertThat(SentenceVectors.meanOfUnits(List.of(new float[] {1, 0}, new float[] {-1, 0}))).containsExactly(1, 0);
    }

    @Test
    void mergedListsKeepEachChunksBestScoreRankedAgainAndCut() {
        List<SearchHit> whole = List.of(new SearchHit(A, 0.5, 1), new SearchHit(B, 0.4, 2));
        List<SearchHit> sentence = List.of(new SearchHit(C, 0.6, 1), new SearchHit(A, 0.3, 2), new SearchHit(B, 0.4, 3));

        List<SearchHit> merged = SentenceVectors.maxPerChunk(List.of(whole, sentence), 10);
        assertThat(merged).extracting(h -> h.chunk().row().rowKey()).containsExactly("c", "a", "b");
        assertThat(merged).extracting(SearchHit::score).containsExactly(0.6, 0.5, 0.4);
        assertThat(merged).extracting(SearchHit::rank).containsExactly(1, 2, 3);

        assertThat(SentenceVectors.maxPerChunk(List.of(whole, sentence), 2)).extracting(h -> h.chunk().row().rowKey())
                .containsExactly("c", "a");
    }

    @Test
    void equalScoresAreOrderedByChunkIdWhateverTheListOrder() {
        List<SearchHit> one = List.of(new SearchHit(B, 0.5, 1), new SearchHit(A, 0.5, 2));
        List<SearchHit> two = List.of(new SearchHit(A, 0.5, 1), new SearchHit(B, 0.5, 2));
        assertThat(SentenceVectors.maxPerChunk(List.of(one), 10)).extracting(h -> h.chunk().row().rowKey()).containsExactly("a", "b");
        assertThat(SentenceVectors.maxPerChunk(List.of(two), 10)).extracting(h -> h.chunk().row().rowKey()).containsExactly("a", "b");
    }
}

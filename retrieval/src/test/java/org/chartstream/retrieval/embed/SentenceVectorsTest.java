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
        assertThat(SentenceVectors.QUESTIONS.sentences("Hi, doctor. My son has a rash. What could it be?"))
                .containsExactly("What could it be?");
        assertThat(SentenceVectors.QUESTIONS.sentences("yeah. i fell on my arm.")).isEmpty();
        assertThat(SentenceVectors.QUESTIONS.sentences("What could it be?")).isEmpty();
    }

    @Test
    void theClausesRuleAlsoSplitsASentenceOfTwoQuestionsAndSearchesEachPartLikeTheStandOutRule() {
        assertThat(SentenceVectors.CLAUSES.sentences("What is hepatitis and how is it transmitted?"))
                .containsExactly("What is hepatitis", "how is it transmitted?");
        assertThat(SentenceVectors.STANDOUT.sentences("What is hepatitis and how is it transmitted?")).isEmpty();
        assertThat(SentenceVectors.CLAUSES.sentences("Is it inherited? Is there a test?"))
                .containsExactly("Is it inherited?", "Is there a test?");
        assertThat(SentenceVectors.CLAUSES.sentences("What is the relationship between Noonan syndrome and polycystic renal disease?"))
                .isEmpty();
        assertThat(SentenceVectors.CLAUSES.searchesPerSentence()).isTrue();
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
    void theBlendScoresEveryFoundChunkByHalfItsCosineWithTheQuestionAndHalfItsBestSentenceCosine() {
        float[] whole = {1, 0, 0};
        float[] smallTalk = {0, 1, 0};
        float[] symptom = {0, 0, 1};
        StoredChunk greeting = ChunkFixture.of("ehr", "notes", "greeting").vector(new float[] {0, 1, 0}).build();
        StoredChunk onTopic = ChunkFixture.of("ehr", "notes", "on-topic").vector(new float[] {0.8f, 0, 0.6f}).build();
        StoredChunk general = ChunkFixture.of("ehr", "notes", "general").vector(new float[] {1, 0, 0}).build();
        List<SearchHit> wholeList = List.of(new SearchHit(general, 1.0, 1), new SearchHit(onTopic, 0.8, 2));
        List<SearchHit> smallTalkList = List.of(new SearchHit(greeting, 1.0, 1));
        List<SearchHit> symptomList = List.of(new SearchHit(onTopic, 0.6, 1));

        List<SearchHit> blended = SentenceVectors.blend(List.of(wholeList, smallTalkList, symptomList), whole,
                List.of(smallTalk, symptom), 10);
        // on-topic 0.5·0.8 + 0.5·0.6 = 0.7; general 0.5·1 + 0.5·0 = 0.5; greeting 0.5·0 + 0.5·1 = 0.5 (ties by id)
        assertThat(blended).extracting(h -> h.chunk().row().rowKey()).containsExactly("on-topic", "general", "greeting");
        assertThat(blended.get(0).score()).isCloseTo(0.7, within(1e-6));
        // by max the small talk's chunk would come first with the question's own best
        assertThat(SentenceVectors.maxPerChunk(List.of(wholeList, smallTalkList, symptomList), 10).get(0).score()).isEqualTo(1.0);
        assertThat(SentenceVectors.BLEND.searchesPerSentence()).isTrue();
        assertThat(SentenceVectors.MEAN.searchesPerSentence()).isFalse();
    }

    @Test
    void onlySentenceListsWhoseFirstRowStandsOutAtLeastAsFarAsTheQuestionsCount() {
        StoredChunk d = ChunkFixture.of("ehr", "notes", "d").build();
        // the question's list: first row at 1, next rows at 0.5 and 0 → stand-out 1 − 0.25 = 0.75
        List<SearchHit> whole = List.of(new SearchHit(A, 0.6, 1), new SearchHit(B, 0.5, 2), new SearchHit(C, 0.4, 3));
        // small talk: every row alike but the last → stand-out 1 − 0.5 = 0.5
        List<SearchHit> smallTalk = List.of(new SearchHit(B, 0.9, 1), new SearchHit(C, 0.9, 2), new SearchHit(d, 0.1, 3));
        // a pointed sentence: its first row far ahead → stand-out 1 − 0 = 1 (a second chunk of a row is not a place)
        List<SearchHit> pointed = List.of(new SearchHit(d, 0.8, 1), new SearchHit(second(d), 0.8, 2),
                new SearchHit(A, 0.2, 3), new SearchHit(C, 0.2, 4));

        assertThat(SentenceVectors.standingOut(List.of(whole, smallTalk, pointed))).containsExactly(whole, pointed);
        assertThat(SentenceVectors.standingOut(List.of(whole, whole))).containsExactly(whole, whole);
    }

    private static StoredChunk second(StoredChunk first) {
        return ChunkFixture.of(first.row()).index(1, 2).build();
    }

    @Test
    void equalScoresAreOrderedByChunkIdWhateverTheListOrder() {
        List<SearchHit> one = List.of(new SearchHit(B, 0.5, 1), new SearchHit(A, 0.5, 2));
        List<SearchHit> two = List.of(new SearchHit(A, 0.5, 1), new SearchHit(B, 0.5, 2));
        assertThat(SentenceVectors.maxPerChunk(List.of(one), 10)).extracting(h -> h.chunk().row().rowKey()).containsExactly("a", "b");
        assertThat(SentenceVectors.maxPerChunk(List.of(two), 10)).extracting(h -> h.chunk().row().rowKey()).containsExactly("a", "b");
    }
}

package org.chartstream.retrieval.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.chartstream.core.store.WeightedText;
import org.chartstream.retrieval.embed.QueryEmbedder;
import org.junit.jupiter.api.Test;

class QuestionTermWeightsTest {
    private static final float[] QUESTION = {1, 0, 0};

    /** Embeds each word by the map (anything else: orthogonal to the question) and records its calls. */
    private static final class MapEmbedder implements QueryEmbedder {
        final Map<String, float[]> vectors;
        final List<List<String>> calls = new ArrayList<>();

        MapEmbedder(Map<String, float[]> vectors) {
            this.vectors = vectors;
        }

        @Override
        public String modelId() {
            return "map";
        }

        @Override
        public float[][] embedQueries(List<String> texts) {
            calls.add(List.copyOf(texts));
            return texts.stream().map(t -> vectors.getOrDefault(t, new float[] {0, 1, 0})).toArray(float[][]::new);
        }
    }

    @Test
    void wordsAreTheDistinctWhitespaceTokensWithoutThePunctuationAroundThemOrQuotes() {
        assertThat(QuestionTermWeights.words("What is (NPH), please? what   IS it's E11.9 — ?"))
                .containsExactly("What", "is", "NPH", "please", "it's", "E11.9");
        assertThat(QuestionTermWeights.words("say \"hi there\" and \u201Cbye\u201D")).containsExactly("say", "hi", "there", "and", "bye");
        assertThat(QuestionTermWeights.words("  ?! -- ")).isEmpty();
    }

    @Test
    void eachWordWeighsItsCosineOverTheLargestToThePowerOneHalfAndAtLeastTheMinimum() {
        List<WeightedText> weighted = QuestionTermWeights.weigh(List.of("plan", "note", "please", "away"), QUESTION,
                new float[][] {{2, 0, 0}, {0.36f, 0.48f, 0.8f}, {0, 0, 1}, {-1, 0.1f, 0}});

        assertThat(weighted).extracting(WeightedText::text).containsExactly("plan", "note", "please", "away");
        assertThat(weighted.get(0).weight()).isEqualTo(1.0);
        assertThat(weighted.get(1).weight()).isCloseTo(0.6, within(1e-6));
        assertThat(weighted.get(2).weight()).isEqualTo(QuestionTermWeights.MIN_WEIGHT);
        assertThat(weighted.get(3).weight()).isEqualTo(QuestionTermWeights.MIN_WEIGHT);
    }

    @Test
    void theWeightsAreRelativeToTheQuestionsClosestWordNotAbsolute() {
        List<WeightedText> weighted = QuestionTermWeights.weigh(List.of("a", "b"), QUESTION,
                new float[][] {{0.5f, 0.866f, 0}, {0.125f, 0.992f, 0}});

        assertThat(weighted.get(0).weight()).isEqualTo(1.0);
        assertThat(weighted.get(1).weight()).isCloseTo(0.5, within(1e-3));
    }

    @Test
    void whenNoWordLiesTowardsTheQuestionEveryWordKeepsWeightOne() {
        assertThat(QuestionTermWeights.weigh(List.of("a", "b"), QUESTION, new float[][] {{0, 1, 0}, {-1, 0, 0}}))
                .extracting(WeightedText::weight).containsExactly(1.0, 1.0);
    }

    @Test
    void aWordVectorCountThatDiffersFromTheWordsIsRefusedNamingBoth() {
        assertThatThrownBy(() -> QuestionTermWeights.weigh(List.of("a", "b"), QUESTION, new float[][] {{1, 0, 0}}))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("2 words but 1 word vectors");
    }

    @Test
    void theQueryEmbedsTheWordsInOneCallAndAddsTheExactTermsQuotedAtWeightOne() {
        MapEmbedder model = new MapEmbedder(Map.of("COPD", new float[] {1, 0, 0}, "patients", new float[] {0.25f, 0.968f, 0}));

        List<WeightedText> query = QuestionTermWeights.queries(List.of("patients with COPD"), List.of(QUESTION), model).get(0).orElseThrow();

        assertThat(model.calls).containsExactly(List.of("patients", "with", "COPD"));
        assertThat(query).extracting(WeightedText::text).containsExactly("patients", "with", "COPD", "\"COPD\"");
        assertThat(query.get(0).weight()).isCloseTo(0.5, within(1e-3));
        assertThat(query.get(1).weight()).isEqualTo(QuestionTermWeights.MIN_WEIGHT);
        assertThat(query.get(2).weight()).isEqualTo(1.0);
        assertThat(query.get(3).weight()).isEqualTo(1.0);
    }

    @Test
    void theWordsOfSeveralVariantsAreEmbeddedInOneCallEachDistinctWordOnce() {
        MapEmbedder model = new MapEmbedder(Map.of("gout", new float[] {1, 0, 0}, "COPD", new float[] {1, 0, 0}));

        List<Optional<List<WeightedText>>> queries = QuestionTermWeights.queries(List.of("who has gout", "gout or COPD"),
                List.of(QUESTION, QUESTION), model);

        assertThat(model.calls).containsExactly(List.of("who", "has", "gout", "or", "COPD"));
        assertThat(queries.get(0).orElseThrow()).extracting(WeightedText::text).containsExactly("who", "has", "gout");
        assertThat(queries.get(1).orElseThrow()).extracting(WeightedText::text).containsExactly("gout", "or", "COPD", "\"COPD\"");
        assertThat(queries.get(1).orElseThrow().get(0).weight()).isEqualTo(1.0);
    }

    @Test
    void aQuestionWithoutWordsOrWithTooManyIsLeftAsAskedWithoutAModelCall() {
        MapEmbedder model = new MapEmbedder(Map.of());
        StringBuilder many = new StringBuilder();
        for (int i = 0; i <= QuestionTermWeights.MAX_WORDS; i++) {
            many.append("word").append(i).append(' ');
        }

        assertThat(QuestionTermWeights.queries(List.of("?!", many.toString()), List.of(QUESTION, QUESTION), model))
                .containsExactly(Optional.empty(), Optional.empty());
        assertThat(model.calls).isEmpty();
    }
}

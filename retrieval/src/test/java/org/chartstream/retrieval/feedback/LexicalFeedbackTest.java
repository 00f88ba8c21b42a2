package org.chartstream.retrieval.feedback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.chartstream.core.store.WeightedText;
import org.chartstream.retrieval.Candidate;
import org.chartstream.retrieval.TestCandidates;
import org.junit.jupiter.api.Test;

class LexicalFeedbackTest {
    private static final List<Candidate> FUSED = List.of(
            TestCandidates.fused(TestCandidates.chunk("a"), 0.9, 1),
            TestCandidates.fused(TestCandidates.chunk("b"), 0.5, 2));

    private static final Map<String, String> TEXTS = Map.of(
            "a", "Gout: uric acid crystals in the joint. Gout flares; uric acid is lowered by allopurinol.",
            "b", "Asthma and inhalers.");

    private static LexicalFeedback.RowTexts texts() {
        return row -> TEXTS.get(row.rowKey());
    }

    private static double weight(List<WeightedText> query, String text) {
        return query.stream().filter(t -> t.text().equals(text)).mapToDouble(WeightedText::weight).sum();
    }

    @Test
    void theQuestionKeepsItsShareAndTheFirstRowsLikeliestTermsShareTheRest() {
        // "gout pain" has 2 terms: the question text counts 0.7 / 2 per term
        List<WeightedText> query = new LexicalFeedback(1, 3, 0.7).query("gout pain", FUSED, texts()).orElseThrow();

        // row a's terms: gout, uric, acid, crystals, joint, gout, flares, uric, acid, lowered,
        // allopurinol (in, the, is, by: stop words); "gout", "uric", "acid" twice each of 11, so each 1/3 once cut to
        // three and renormalised
        assertThat(query).extracting(WeightedText::text).containsExactly("gout pain", "acid", "gout", "uric");
        assertThat(weight(query, "gout pain")).isCloseTo(0.35, within(1e-12));
        assertThat(weight(query, "acid")).isCloseTo(0.1, within(1e-12));
        assertThat(weight(query, "gout")).isCloseTo(0.1, within(1e-12));
        assertThat(weight(query, "uric")).isCloseTo(0.1, within(1e-12));
    }

    @Test
    void onlyTheFirstRowsAreReadAndEachRowCountsByItsTermFrequencyOverItsLength() {
        List<WeightedText> one = LexicalFeedback.RM3.query("gout", FUSED, texts()).orElseThrow();
        assertThat(one).extracting(WeightedText::text).doesNotContain("asthma", "inhalers");

        List<WeightedText> two = new LexicalFeedback(2, 20, 0.5).query("gout", FUSED, texts()).orElseThrow();
        // row b: asthma, inhalers, each 1/2; row a: gout 2/11; summed over rows, then normalised by the total 2
        assertThat(weight(two, "asthma")).isCloseTo(0.5 * 0.5 / 2, within(1e-12));
        assertThat(weight(two.subList(1, two.size()), "gout")).as("the expansion term, beside the question").isCloseTo(0.5 * (2.0 / 11) / 2, within(1e-12));
        assertThat(two.stream().skip(1).mapToDouble(WeightedText::weight).sum()).isCloseTo(0.5, within(1e-12));
    }

    @Test
    void feedbackTermsAreFoldedWordsOfTwoToTwentyLettersOrDigitsWithoutStopWords() {
        assertThat(LexicalFeedback.terms("The HbA1c is 7.2 in Zoë's chart; a re-check x 2 pneumonoultramicroscopicsilicovolcanoconiosis"))
                .containsExactly("hba1c", "zoe", "chart");
    }

    @Test
    void noQuestionTermNoRowTextOrFeedbackOffGivesNoSecondQuery() {
        assertThat(LexicalFeedback.RM3.query("the of", FUSED, texts())).isEmpty();
        assertThat(LexicalFeedback.RM3.query("gout", FUSED, row -> "")).isEmpty();
        assertThat(LexicalFeedback.RM3.query("gout", List.of(), texts())).isEmpty();
        assertThat(LexicalFeedback.OFF.query("gout", FUSED, texts())).isEmpty();
        assertThat(LexicalFeedback.OFF.on()).isFalse();
        assertThat(new LexicalFeedback(1, 10, 1).on()).as("the question alone: nothing to add").isFalse();
    }

    @Test
    void rejectsNegativeCountsAndAWeightOutsideZeroToOne() {
        assertThatThrownBy(() -> new LexicalFeedback(-1, 10, 0.7)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LexicalFeedback(1, -1, 0.7)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LexicalFeedback(1, 10, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LexicalFeedback(1, 10, 1.5)).isInstanceOf(IllegalArgumentException.class);
    }
}

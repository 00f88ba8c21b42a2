package org.chartstream.retrieval.context;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import org.chartstream.models.HuggingFaceTokenCounter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class TokenTruncationTest {
    private static HuggingFaceTokenCounter bert;

    @BeforeAll
    static void load() throws IOException {
        try (InputStream in = TokenTruncationTest.class.getClassLoader().getResourceAsStream("all-minilm-l6-v2-tokenizer.json")) {
            bert = HuggingFaceTokenCounter.load(in);
        }
    }

    @AfterAll
    static void close() {
        bert.close();
    }

    @Test
    void aTextWithinTheBudgetIsUnchanged() {
        TokenTruncation.Truncated t = TokenTruncation.truncate(bert, "blood pressure 142/91", 10);

        assertThat(t.text()).isEqualTo("blood pressure 142/91");
        assertThat(t.truncated()).isFalse();
        assertThat(t.tokens()).isEqualTo(bert.count("blood pressure 142/91"));
    }

    @Test
    void cutsBetweenWordsToTheLongestPrefixThatFits() {
        String text = "hypertension managed with lisinopril and a low sodium diet";
        String[] words = text.split(" ");
        for (int budget = 2; budget < bert.count(text); budget++) {
            TokenTruncation.Truncated t = TokenTruncation.truncate(bert, text, budget);

            assertThat(t.truncated()).isTrue();
            assertThat(t.tokens()).isEqualTo(bert.count(t.text())).isLessThanOrEqualTo(budget);
            assertThat(text).startsWith(t.text());
            int kept = t.text().isEmpty() ? 0 : t.text().split(" ").length;
            assertThat(words[kept - 1]).as("budget %d ends on a whole word", budget).isEqualTo(t.text().substring(t.text().lastIndexOf(' ') + 1));
            String oneMoreWord = String.join(" ", Arrays.copyOf(words, kept + 1));
            assertThat(bert.count(oneMoreWord)).as("budget %d keeps every word that fits", budget).isGreaterThan(budget);
        }
    }

    @Test
    void aFirstWordLongerThanTheBudgetIsCutBetweenCharacters() {
        TokenTruncation.Truncated t = TokenTruncation.truncate(text -> text.length(),
                "abcdefghij klm", 4);

        assertThat(t.text()).isEqualTo("abcd");
        assertThat(t.truncated()).isTrue();
        assertThat(TokenTruncation.truncate(text -> text.length(), "abc", 0).text()).isEmpty();
    }

    @Test
    void countsWithTheModelsTokenizerNotCharacters() {
        assertThat(bert.count("hypertension")).isEqualTo(2);
        assertThat(bert.count("")).isZero();
        assertThatThrownBy(() -> TokenTruncation.truncate(bert, "x", -1)).hasMessageContaining("negative");
    }
}

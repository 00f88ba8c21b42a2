package org.chartstream.retrieval.generate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExtractiveGeneratorTest {

    @Test
    void quotesEveryPassageUnderTheExtractiveLabelAndCitesThemAll() {
        List<String> tokens = new ArrayList<>();

        GenerationResult result = new ExtractiveGenerator(40).generate("What does Ana Ruiz take?", TestPassages.six(), tokens::add);

        assertThat(result.outcome()).isEqualTo(GenerationResult.Outcome.EXTRACTIVE);
        assertThat(result.answer()).startsWith(ExtractiveAnswer.LABEL + "\n[1] record: medications patient: Ana Ruiz me …")
                .contains("\n[6] record: notes");
        assertThat(result.citations().cited()).containsExactly(1, 2, 3, 4, 5, 6);
        assertThat(result.generator()).isEqualTo("extractive (no generation model configured)");
        assertThat(result.detail()).isEqualTo("no generation model configured: 6 passages quoted");
        assertThat(tokens).isEmpty();
    }
}

package org.chartstream.retrieval.generate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What every {@link Generator} guarantees. */
abstract class GeneratorContract {

    abstract Generator generator();

    @Test
    void anAnswerCitesOnlyPassagesThatExist() {
        GenerationResult result = generator().generate("What does Ana Ruiz take?", TestPassages.six(), t -> { });

        assertThat(result.outcome()).isIn(GenerationResult.Outcome.ANSWERED, GenerationResult.Outcome.EXTRACTIVE);
        assertThat(result.citations().cited()).isNotEmpty();
        assertThat(result.citations().flagged()).isFalse();
        assertThat(result.generator()).isEqualTo(generator().name()).isNotBlank();
    }

    @Test
    void streamedPiecesAreTheAnswer() {
        List<String> pieces = new ArrayList<>();

        GenerationResult result = generator().generate("What does Ana Ruiz take?", TestPassages.six(), pieces::add);

        assertThat(result.tokensStreamed()).isEqualTo(pieces.size());
        if (!pieces.isEmpty()) {
            assertThat(String.join("", pieces).strip()).isEqualTo(result.answer());
        }
    }

    @Test
    void nothingToAnswerFromIsARefusalWithoutTokens() {
        List<String> pieces = new ArrayList<>();

        GenerationResult result = generator().generate("What does Ana Ruiz take?", List.of(), pieces::add);

        assertThat(result.outcome()).isEqualTo(GenerationResult.Outcome.REFUSED);
        assertThat(pieces).isEmpty();
    }
}

package org.chartstream.retrieval.scope;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WordsTest {
    @Test
    void wordsKeepInnerHyphensAndDropOuterOnes() {
        assertThat(Words.folded("MRN-000001, Pemberton-Lowe -and- x.")).containsExactly("mrn-000001", "pemberton-lowe", "and", "x");
    }

    @Test
    void wordsAreFoldedToLowerCaseWithoutAccents() {
        assertThat(Words.of("Dr. Róss")).containsExactly(new Words.Word("dr", true), new Words.Word("ross", true));
        assertThat(Words.fold("CÉLIAC")).isEqualTo("celiac");
    }

    @Test
    void aWordWrittenInLowerCaseIsNotCapitalised() {
        assertThat(Words.of("ross")).containsExactly(new Words.Word("ross", false));
    }
}

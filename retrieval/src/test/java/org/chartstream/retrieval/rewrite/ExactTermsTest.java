package org.chartstream.retrieval.rewrite;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ExactTermsTest {

    @Test
    void icdLikeCodesAndAllCapsTermsBecomePhrasesInOrderOfAppearance() {
        assertThat(ExactTerms.phrases("COPD or E11.9 or I10 with CABG history, again COPD"))
                .containsExactly("COPD", "E11.9", "I10", "CABG");
    }

    @Test
    void shortCapsLowercaseAndEmbeddedLettersAreNotExactTerms() {
        assertThat(ExactTerms.phrases("BP and MRI for the i10 form; AB12 or e11.9; HbA1c")).isEmpty();
    }

    @Test
    void termsAlreadyQuotedAreNotAddedAgain() {
        assertThat(ExactTerms.phrases("\"E11.9\" and COPD")).containsExactly("COPD");
    }

    @Test
    void theLexicalQueryAppendsThePhrasesQuoted() {
        assertThat(ExactTerms.lexicalQuery("patients with E11.9 and COPD"))
                .isEqualTo("patients with E11.9 and COPD \"E11.9\" \"COPD\"");
        assertThat(ExactTerms.lexicalQuery("no exact terms here")).isEqualTo("no exact terms here");
    }
}

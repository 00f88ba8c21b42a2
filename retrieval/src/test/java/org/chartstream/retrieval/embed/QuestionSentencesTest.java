package org.chartstream.retrieval.embed;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class QuestionSentencesTest {
    @Test
    void aQuestionOfOneSentenceIsOneSentence() {
        assertThat(QuestionSentences.of("  What is the relationship between Noonan syndrome and polycystic renal disease? "))
                .containsExactly("What is the relationship between Noonan syndrome and polycystic renal disease?");
        assertThat(QuestionSentences.of("which note mentions the plan")).containsExactly("which note mentions the plan");
    }

    @Test
    void sentencesEndAtQuestionAndExclamationMarksAndAtAPeriodAfterAWord() {
        assertThat(QuestionSentences.of("Is dementia inherited? Can one develop it without inheriting it?"))
                .containsExactly("Is dementia inherited?", "Can one develop it without inheriting it?");
        assertThat(QuestionSentences.of("I have a toddler, 22 months, who may have back problems. What kind of doctor should I see."))
                .containsExactly("I have a toddler, 22 months, who may have back problems.", "What kind of doctor should I see.");
        assertThat(QuestionSentences.of("Help! My son has a rash.")).containsExactly("Help!", "My son has a rash.");
    }

    @Test
    void anAbbreviationOrANumberBeforeAPeriodDoesNotEndASentence() {
        assertThat(QuestionSentences.of("Do 5 mg. Zolmitriptan tablets contain gluten?"))
                .containsExactly("Do 5 mg. Zolmitriptan tablets contain gluten?");
        assertThat(QuestionSentences.of("Did Dr. Smith raise the dose to 2.5 mg?"))
                .containsExactly("Did Dr. Smith raise the dose to 2.5 mg?");
        assertThat(QuestionSentences.of("The dose was 20. Is that high?")).containsExactly("The dose was 20. Is that high?");
    }

    @Test
    void aFragmentWithoutALetterJoinsTheSentenceBeforeIt() {
        assertThat(QuestionSentences.of("Is it contagious? ?? Who can tell me?"))
                .containsExactly("Is it contagious? ??", "Who can tell me?");
        assertThat(QuestionSentences.of("")).containsExactly("");
    }

    @Test
    void aLongMessageIsSplitIntoAtMostTheBoundAndTheRestJoinsTheLastSentence() {
        String message = "One a? Two b? Three c? Four d? Five e? Six f? Seven g? Eight h?";
        assertThat(QuestionSentences.of(message)).hasSize(QuestionSentences.MAX_SENTENCES)
                .startsWith("One a?", "Two b?").endsWith("Six f? Seven g? Eight h?");
    }

    @Test
    void aSentenceAsksWhenItEndsWithAQuestionMarkOrOpensWithAQuestionWord() {
        assertThat(QuestionSentences.asks("Can chronic cervicitis cause infertility?")).isTrue();
        assertThat(QuestionSentences.asks("What kind of doctor should I see.")).isTrue();
        assertThat(QuestionSentences.asks("i'm really worried, you know?")).isTrue();
        assertThat(QuestionSentences.asks("I have a toddler who may have back problems.")).isFalse();
        assertThat(QuestionSentences.asks("yeah.")).isFalse();
        assertThat(QuestionSentences.asks("Whatever helps.")).isFalse();
    }

    @Test
    void aSentenceSplitsIntoClausesAtAnAndOrAnOrThatOpensAnotherQuestion() {
        assertThat(QuestionSentences.clauses("What is hepatitis and how is it transmitted?"))
                .containsExactly("What is hepatitis", "how is it transmitted?");
        assertThat(QuestionSentences.clauses("When was Andrew Perez born, and where does he live?"))
                .containsExactly("When was Andrew Perez born", "where does he live?");
        assertThat(QuestionSentences.clauses("Is it inherited or can one develop it? Is there a test and what does it cost?"))
                .containsExactly("Is it inherited", "can one develop it?", "Is there a test", "what does it cost?");
    }

    @Test
    void anAndOrAnOrBeforeAnyOtherWordOrACommaAloneDoesNotSplit() {
        assertThat(QuestionSentences.clauses("What is the relationship between Noonan syndrome and polycystic renal disease?"))
                .containsExactly("What is the relationship between Noonan syndrome and polycystic renal disease?");
        assertThat(QuestionSentences.clauses("I have a toddler, 22 months, who may have back problems."))
                .containsExactly("I have a toddler, 22 months, who may have back problems.");
        assertThat(QuestionSentences.clauses("Whatever helps and whatever works.")).containsExactly("Whatever helps and whatever works.");
    }

    @Test
    void clausesAreBoundLikeSentences() {
        String message = "a and is b and is c and is d? e and is f and is g and is h?";
        assertThat(QuestionSentences.clauses(message)).hasSize(QuestionSentences.MAX_SENTENCES)
                .startsWith("a", "is b").endsWith("is f is g is h?");
    }
}

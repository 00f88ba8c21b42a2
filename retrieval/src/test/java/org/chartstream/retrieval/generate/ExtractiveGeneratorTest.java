package org.chartstream.retrieval.generate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.chartstream.models.ModelDescriptor;
import org.chartstream.models.OnnxEmbedder;
import org.chartstream.models.OnnxRuntimeGuard;
import org.chartstream.retrieval.embed.QueryEmbedder;
import org.junit.jupiter.api.Test;

class ExtractiveGeneratorTest {
    /** Scores a sentence by the question words it holds: a transparent stand-in for the embedding model. */
    static final SentenceScorer WORD_OVERLAP = (question, sentences) -> {
        Set<String> words = Set.of(question.toLowerCase(Locale.ROOT).split("\\W+"));
        return sentences.stream().mapToDouble(s -> List.of(s.toLowerCase(Locale.ROOT).split("\\W+")).stream()
                .filter(words::contains).count()).toArray();
    };

    static final String NOTE = """
            record: clinical notes
            patient: Ana Ruiz (MRN-1)
            note date: 2024-03-01
            note text: REVIEW OF SYSTEMS
            Constitutional: denies fever. Eyes: denies blurred vision. Respiratory: denies cough.

            ASSESSMENT AND PLAN
            Hypertension is not controlled. Increase lisinopril to 20 mg daily. Recheck blood pressure in two weeks.""";

    @Test
    void quotesEachRecordsBestSentencesInRecordOrderEachCitedGroupedByPatient() {
        List<String> tokens = new ArrayList<>();
        List<org.chartstream.retrieval.context.ContextPassage> passages = TestPassages.of(
                "record: medications\npatient: Ana Ruiz (MRN-1)\nstart date: 2021-01-02\ndescription: lisinopril 10 mg daily",
                "record: medications\npatient: Ben Ode (MRN-2)\ndescription: metformin 500 mg",
                "record: conditions\npatient: Ana Ruiz (MRN-1)\ndescription: essential hypertension (I10)");

        List<List<String>> scored = new ArrayList<>();
        SentenceScorer recording = (question, sentences) -> {
            scored.add(sentences);
            return WORD_OVERLAP.relevance(question, sentences);
        };

        GenerationResult result = new ExtractiveGenerator(recording, 600).generate("What does Ana Ruiz take daily?", passages, tokens::add);

        assertThat(result.outcome()).isEqualTo(GenerationResult.Outcome.EXTRACTIVE);
        assertThat(result.answer()).isEqualTo(ExtractiveAnswer.LABEL + "\n"
                + "Ana Ruiz (MRN-1):\n"
                + "  medications: start date: 2021-01-02 [1] description: lisinopril 10 mg daily [1]\n"
                + "  conditions: description: essential hypertension (I10) [3]\n"
                + "Ben Ode (MRN-2):\n"
                + "  medications: description: metformin 500 mg [2]");
        assertThat(result.citations().cited()).as("in answer order").containsExactly(1, 3, 2);
        assertThat(result.generator()).isEqualTo("extractive (no generation model configured)");
        assertThat(result.detail()).isEqualTo("no generation model configured: sentences of 3 of 3 passages quoted");
        assertThat(tokens).isEmpty();
        assertThat(scored).as("records of at most three pieces quote them all: the model is not called").isEmpty();
    }

    @Test
    void aLongNoteQuotesAtMostThreeSentencesWithTheirSectionAndStaysWithinTheCharacterBudget() {
        GenerationResult result = new ExtractiveGenerator(WORD_OVERLAP, 90).generate("What is the plan for lisinopril and blood pressure?",
                TestPassages.of(NOTE), t -> { });

        String line = result.answer().split("\n")[2];
        assertThat(line).startsWith("  clinical notes: ASSESSMENT AND PLAN: ").contains("[1]").doesNotContain("REVIEW OF SYSTEMS");
        assertThat(line.length()).isLessThan(90 + 60);
    }

    @Test
    void aLongNoteHasOnlyItsShortlistScoredAndStillQuotesTheAnsweringSentence() {
        List<Integer> scoredPerCall = new ArrayList<>();
        SentenceScorer counting = (question, sentences) -> {
            scoredPerCall.add(sentences.size());
            return WORD_OVERLAP.relevance(question, sentences);
        };
        String longNote = NOTE.replace("Respiratory: denies cough.", "Respiratory: denies cough. "
                + "Skin: denies rash. Neurological: denies numbness. Psychiatric: denies low mood. Endocrine: denies heat intolerance. "
                + "Gastrointestinal: denies nausea. Musculoskeletal: denies joint pain. Hematologic: denies easy bruising.");

        String answer = new ExtractiveGenerator(counting, 600).generate("What is the plan for lisinopril?",
                TestPassages.of(longNote), t -> { }).answer();

        assertThat(scoredPerCall).containsExactly(ScoringShortlist.DEFAULT.perRecord());
        assertThat(answer).contains("Increase lisinopril to 20 mg daily. [1]");
    }

    @Test
    void theEmbeddingModelPicksThePlanNotTheReviewOfSystems() {
        OnnxRuntimeGuard.shortenInformationalClassPathProperties();
        try (OnnxEmbedder model = OnnxEmbedder.load(ModelDescriptor.ALL_MINILM_L6_V2, 2)) {
            ExtractiveGenerator generator = new ExtractiveGenerator(new EmbeddingSentenceScorer(QueryEmbedder.of(model)), 600);

            String answer = generator.generate("How will her high blood pressure medication be changed?", TestPassages.of(NOTE), t -> { })
                    .answer();

            assertThat(answer).contains("Increase lisinopril to 20 mg daily. [1]").doesNotContain("blurred vision");
        }
    }
}

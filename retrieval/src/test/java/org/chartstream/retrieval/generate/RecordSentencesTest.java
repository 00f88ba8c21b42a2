package org.chartstream.retrieval.generate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RecordSentencesTest {
    @Test
    void shortFieldsAreWholeAndALongNoteIsCutIntoSentencesUnderTheirHeadings() {
        RecordSentences r = RecordSentences.of("""
                record: clinical notes
                patient: Ana Ruiz (MRN-1)
                note date: 2024-03-01
                note text: HISTORY OF PRESENT ILLNESS
                Mr. Ruiz saw Dr. Lee on Monday. He feels well! Is it J. Smith's advice? Yes.

                PAST HISTORY
                Hypertension.

                ASSESSMENT AND PLAN
                Hypertension.
                Continue lisinopril.""");

        assertThat(r.recordType()).isEqualTo("clinical notes");
        assertThat(r.patient()).isEqualTo("Ana Ruiz (MRN-1)");
        assertThat(r.sentences()).containsExactly(
                new RecordSentences.Sentence("", "note date: 2024-03-01"),
                new RecordSentences.Sentence("HISTORY OF PRESENT ILLNESS", "Mr. Ruiz saw Dr. Lee on Monday."),
                new RecordSentences.Sentence("HISTORY OF PRESENT ILLNESS", "He feels well!"),
                new RecordSentences.Sentence("HISTORY OF PRESENT ILLNESS", "Is it J. Smith's advice?"),
                new RecordSentences.Sentence("HISTORY OF PRESENT ILLNESS", "Yes."),
                new RecordSentences.Sentence("PAST HISTORY", "Hypertension."),
                new RecordSentences.Sentence("ASSESSMENT AND PLAN", "Continue lisinopril."));
        assertThat(r.sentences().get(6).scored()).isEqualTo("ASSESSMENT AND PLAN: Continue lisinopril.");
    }

    @Test
    void aChunkStartingInsideALongFieldKeepsItsTextOutOfTheHeader() {
        RecordSentences r = RecordSentences.of("record: clinical notes\npatient: Ana Ruiz (MRN-1)\nthe knee is swollen. Ice it twice a day.");

        assertThat(r.patient()).isEqualTo("Ana Ruiz (MRN-1)");
        assertThat(r.sentences()).extracting(RecordSentences.Sentence::text).containsExactly("the knee is swollen. Ice it twice a day.");
    }
}

package org.chartstream.retrieval.generate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScoringShortlistTest {
    private static final ScoringShortlist FOUR = new ScoringShortlist(4, 40);

    private static List<String> review(int sentences) {
        List<String> pieces = new ArrayList<>();
        for (int i = 0; i < sentences; i++) {
            pieces.add("REVIEW OF SYSTEMS: the patient denies symptom " + i + ".");
        }
        return pieces;
    }

    @Test
    void aShortRecordHasEveryPieceScored() {
        assertThat(FOUR.pick("what is the plan?", List.of(List.of("a", "b", "c", "d")))).containsExactly(List.of(0, 1, 2, 3));
    }

    @Test
    void aRecordWithNoMorePiecesThanItQuotesHasNoneScored() {
        assertThat(FOUR.pick("what is the plan?", List.of(List.of("a", "b", "c"), List.of("one field"))))
                .containsExactly(List.of(), List.of());
    }

    @Test
    void aLongRecordKeepsThePiecesWithTheRarestQuestionWordsAndTheirNeighbours() {
        List<String> note = review(10);
        note.add("PLAN: Hypertension is not controlled.");
        note.add("PLAN: Increase lisinopril to 20 mg daily.");
        note.add("PLAN: Recheck blood pressure in two weeks.");

        List<List<Integer>> picked = FOUR.pick("Will the patient's blood pressure medication change?", List.of(note));

        // "patient" is in ten pieces and weighs a tenth; "blood" and "pressure" are in one: that piece and the one
        // before it (the dose change, which shares no word with the question) come first
        assertThat(picked.get(0)).hasSize(4).contains(11, 12);
    }

    @Test
    void withNoQuestionWordInARecordItsFirstPiecesAreScored() {
        assertThat(FOUR.pick("allergies?", List.of(review(9)))).containsExactly(List.of(0, 1, 2, 3));
    }

    @Test
    void wordsAreComparedWithoutCaseOrAccents() {
        List<String> record = new ArrayList<>(review(6));
        record.add("Seen by Dr. Ross for CÉLIAC disease.");

        assertThat(FOUR.pick("celiac disease in ross?", List.of(record)).get(0)).contains(6).hasSize(4);
    }

    @Test
    void aHyphenatedWordMatchesItsParts() {
        List<String> record = new ArrayList<>(review(6));
        record.add("Follow-up for low-dose aspirin.");

        assertThat(FOUR.pick("what dose was given?", List.of(record)).get(0)).contains(6).hasSize(4);
    }

    @Test
    void aScoredTextIsCutAtAWordWithinTheLimit() {
        assertThat(FOUR.scoredText("short")).isEqualTo("short");
        assertThat(FOUR.scoredText("Hypertension is not controlled and the dose of lisinopril goes up"))
                .isEqualTo("Hypertension is not controlled and the");
        assertThat(ScoringShortlist.EVERY_PIECE.scoredText("x".repeat(5000))).hasSize(5000);
    }

    @Test
    void aShortlistShorterThanTheQuotedPiecesIsRefused() {
        assertThatThrownBy(() -> new ScoringShortlist(2, 300)).hasMessageContaining("perRecord must be at least 3");
        assertThatThrownBy(() -> new ScoringShortlist(8, 0)).hasMessageContaining("maxChars must be positive");
    }
}

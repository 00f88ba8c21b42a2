package org.chartstream.query.memory;

import static org.assertj.core.api.Assertions.assertThat;

import org.chartstream.schemas.ConversationMemory;
import org.chartstream.schemas.ConversationTurn;
import org.junit.jupiter.api.Test;

class ConversationMemoriesTest {
    @Test
    void keepsTheLastTurnsVerbatimAndFoldsOlderOnesIntoTheSummary() {
        ConversationMemory m = ConversationMemories.empty("c", "u");
        for (int i = 1; i <= 10; i++) {
            m = ConversationMemories.append(m, "question " + i, "answer " + i, i, 8);
        }
        assertThat(m.getTurns()).extracting(ConversationTurn::getQuestion).containsExactly(
                "question 3", "question 4", "question 5", "question 6", "question 7", "question 8", "question 9", "question 10");
        assertThat(m.getSummary()).isEqualTo("Earlier the user asked: question 1 Earlier the user asked: question 2");
        assertThat(m.getUpdatedTsMs()).isEqualTo(10);
    }

    @Test
    void theSummaryAndStoredAnswersStayBounded() {
        ConversationMemory m = ConversationMemories.empty("c", "u");
        for (int i = 0; i < 200; i++) {
            m = ConversationMemories.append(m, "q".repeat(100), "a".repeat(5000), i, 2);
        }
        assertThat(m.getSummary().length()).isLessThanOrEqualTo(ConversationMemories.MAX_SUMMARY_CHARS);
        assertThat(m.getTurns()).allSatisfy(t -> assertThat(t.getAnswer()).hasSize(ConversationMemories.MAX_STORED_ANSWER_CHARS));
    }

    @Test
    void eachTurnKeepsItsPatientsForTheNextTurnsFollowUp() {
        ConversationMemory m = ConversationMemories.empty("c", "u");
        m = ConversationMemories.append(m, "What conditions does Elizabeth Ross have?", "…", java.util.List.of("MRN-000007"), 1, 8);
        m = ConversationMemories.append(m, "Which patients take lisinopril?", "…", 2, 8);

        assertThat(m.getTurns()).extracting(ConversationTurn::getPatientKeys)
                .containsExactly(java.util.List.of("MRN-000007"), java.util.List.of());
        assertThat(org.chartstream.query.RetrievalTypes.history(m).recentTurns())
                .extracting(org.chartstream.retrieval.rewrite.RecentTurn::patientKeys)
                .containsExactly(java.util.List.of("MRN-000007"), java.util.List.of());
    }

    @Test
    void memoryOfAnotherUserIsNotTheirs() {
        ConversationMemory m = ConversationMemories.empty("c", "alice");
        assertThat(ConversationMemories.ownedByAnother(m, "bob")).isTrue();
        assertThat(ConversationMemories.ownedByAnother(m, "alice")).isFalse();
        assertThat(ConversationMemories.ownedByAnother(null, "bob")).isFalse();
    }
}

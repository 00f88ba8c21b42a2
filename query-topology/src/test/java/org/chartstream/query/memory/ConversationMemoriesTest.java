package org.chartstream.query.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.IntStream;
import org.chartstream.core.store.ChunkFixture;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.query.RetrievalTypes;
import org.chartstream.retrieval.Answer;
import org.chartstream.retrieval.Completeness;
import org.chartstream.retrieval.Outcome;
import org.chartstream.retrieval.PatientScope;
import org.chartstream.retrieval.QueryPipeline;
import org.chartstream.retrieval.RetrievalTrace;
import org.chartstream.retrieval.SetResult;
import org.chartstream.retrieval.generate.Passage;
import org.chartstream.retrieval.rewrite.RecentTurn;
import org.chartstream.schemas.ConversationMemory;
import org.chartstream.schemas.ConversationTurn;
import org.chartstream.schemas.serde.AvroSerde;
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

    @Test
    void aCompleteWholeSetOverPatientsIsRememberedAsThatSetAndSurvivesTheStore() {
        List<String> set = List.of("p1", "p2", "p3");
        RememberedPatients remembered = RememberedPatients.of(result(patientsSet(set, true), "p9"));
        assertThat(remembered.keys()).isEqualTo(set);
        assertThat(remembered.wholeSet()).isTrue();

        ConversationMemory m = ConversationMemories.append(ConversationMemories.empty("c", "u"), "Which patients are on a statin?",
                "3 patients", remembered, 1, 8);
        AvroSerde<ConversationMemory> serde = AvroSerde.of(ConversationMemory.class);
        ConversationMemory stored = serde.deserialize("memory", serde.serialize("memory", m));

        assertThat(stored.getTurns().get(0).getWholeSet()).isTrue();
        RecentTurn turn = RetrievalTypes.history(stored).recentTurns().get(0);
        assertThat(turn.wholeSet()).isTrue();
        assertThat(turn.patientKeys()).isEqualTo(set);
    }

    @Test
    void aSetThatIsNotCompleteOrHoldsNoPatientsIsRememberedByTheCitedPatientsAsBefore() {
        RememberedPatients partial = RememberedPatients.of(result(patientsSet(List.of(), false), "p9"));
        RememberedPatients noPatients = RememberedPatients.of(result(Optional.of(new SetResult(SetResult.Output.COUNT, null, 4, 0,
                List.of(), List.of(), List.of(), List.of(), List.of(), true)), "p9"));
        RememberedPatients ordinary = RememberedPatients.of(result(Optional.empty(), "p9"));

        for (RememberedPatients r : List.of(partial, noPatients, ordinary)) {
            assertThat(r.keys()).containsExactly("p9");
            assertThat(r.wholeSet()).isFalse();
        }
    }

    @Test
    void aWholeSetOverTheCapIsRememberedWithNoPatientsRatherThanPartOfIt() {
        List<String> tenThousand = IntStream.range(0, 10_000).mapToObj(i -> UUID.randomUUID().toString()).toList();

        RememberedPatients remembered = RememberedPatients.of(result(patientsSet(tenThousand, true), "p9"));

        assertThat(remembered.wholeSet()).isFalse();
        assertThat(remembered.keys()).isEmpty();
        List<String> atTheCap = tenThousand.subList(0, RememberedPatients.MAX_PATIENTS);
        assertThat(RememberedPatients.of(result(patientsSet(atTheCap, true), "p9")).wholeSet()).isTrue();
    }

    @Test
    void aMemoryOfEveryTurnAtTheCapStaysUnderABrokersDefaultRecordLimit() {
        ConversationMemory m = ConversationMemories.empty("c", "u");
        for (int i = 0; i < 2 * ConversationMemories.DEFAULT_MAX_TURNS; i++) {
            List<String> keys = IntStream.range(0, RememberedPatients.MAX_PATIENTS).mapToObj(k -> UUID.randomUUID().toString()).toList();
            m = ConversationMemories.append(m, "q".repeat(4000), "a".repeat(5000), new RememberedPatients(keys, true), i,
                    ConversationMemories.DEFAULT_MAX_TURNS);
        }

        assertThat(AvroSerde.of(ConversationMemory.class).serialize("memory", m).length).isLessThan(1024 * 1024);
    }

    /** A whole-set answer over {@code patients}, complete or not. */
    private static Optional<SetResult> patientsSet(List<String> patients, boolean complete) {
        return Optional.of(new SetResult(SetResult.Output.PATIENTS, null, patients.size() + 2L, patients.size(), patients,
                complete ? patients : List.of(), List.of(), List.of(), List.of("statin"), complete));
    }

    /** An answer citing one row of {@code citedPatient}, with {@code set} as its whole-set result. */
    private static QueryPipeline.Result result(Optional<SetResult> set, String citedPatient) {
        StoredChunk row = ChunkFixture.of("ehr", "medications", "m1").patient(citedPatient).build();
        Answer answer = new Answer(Outcome.ANSWER, "answer", true, List.of(new Passage(1, row, 1.0, row.text())),
                RetrievalTrace.Cohort.LOOKUP, List.of(), Optional.of(Completeness.MOST_RELEVANT), set);
        return new QueryPipeline.Result(answer, new RetrievalTrace.Cohort(true, "every listed row holds the question's anchor"),
                PatientScope.NONE, Map.of());
    }
}

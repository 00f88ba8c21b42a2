package org.chartstream.evaluation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.chartstream.retrieval.Answer;
import org.chartstream.retrieval.Outcome;
import org.chartstream.retrieval.PatientScope;
import org.chartstream.retrieval.QueryPipeline;
import org.chartstream.retrieval.RetrievalTrace;
import org.chartstream.retrieval.SetResult;
import org.chartstream.retrieval.rewrite.RecentTurn;
import org.junit.jupiter.api.Test;

class ConversationsTest {

    private static QueryPipeline.Result result(SetResult set) {
        Answer answer = new Answer(Outcome.ANSWER, "3 patients", true, List.of(), "extractive", List.of(), Optional.empty(),
                Optional.ofNullable(set));
        return new QueryPipeline.Result(answer, new RetrievalTrace.Cohort(true, "listed"), PatientScope.NONE, Map.of());
    }

    private static SetResult patients(boolean complete) {
        return new SetResult(SetResult.Output.PATIENTS, null, 5, 3, List.of("1", "2", "3"),
                complete ? List.of("k1", "k2", "k3") : List.of(), List.of(), List.of(), List.of(), complete);
    }

    @Test
    void aCompleteSetOfPatientsIsKeptAsTheTurnsWholeSet() {
        RecentTurn turn = Conversations.turn(result(patients(true)), "Who takes warfarin?");

        assertThat(turn.patientKeys()).containsExactly("k1", "k2", "k3");
        assertThat(turn.wholeSet()).isTrue();
    }

    @Test
    void anIncompleteSetOrNoSetKeepsThePatientsTheTurnCited() {
        assertThat(Conversations.turn(result(patients(false)), "Who takes warfarin?").wholeSet()).isFalse();
        RecentTurn plain = Conversations.turn(result(null), "Who takes warfarin?");
        assertThat(plain.wholeSet()).isFalse();
        assertThat(plain.patientKeys()).isEmpty();
    }
}

package org.chartstream.evaluation.sets;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.chartstream.core.store.ChunkFixture;
import org.chartstream.core.store.PatientLabel;
import org.chartstream.retrieval.Answer;
import org.chartstream.retrieval.Completeness;
import org.chartstream.retrieval.Outcome;
import org.chartstream.retrieval.SetResult;
import org.chartstream.retrieval.generate.Passage;
import org.junit.jupiter.api.Test;

class SetScoreTest {
    private static final Set<String> NUMBERS = Set.of("10000001", "10000002", "10000003", "10000004");
    private static final Completeness COMPLETE = new Completeness(Completeness.Kind.COMPLETE, "every row", null);

    private static SetQuestion question(String kind, String... keys) {
        Map<String, Object> stored = new java.util.LinkedHashMap<>();
        for (String key : keys) {
            stored.put(key, null);
        }
        return new SetQuestion(1, kind + "-1", kind, "q", "SELECT 1", null, List.of(keys), stored, Map.of(), null);
    }

    private static SetResult patients(SetResult.Output output, List<String> listed, boolean complete) {
        return new SetResult(output, null, listed.size() * 2L, listed.size(), listed, List.of(), List.of(), List.of(),
                List.of(), complete);
    }

    private static Answer setAnswer(SetResult set, Completeness completeness) {
        return new Answer(Outcome.ANSWER, "answer", true, List.of(), "extractive", List.of(), Optional.ofNullable(completeness),
                Optional.of(set));
    }

    private static Answer textAnswer(Outcome outcome, String text, Completeness completeness, String... citedPatients) {
        List<Passage> passages = new ArrayList<>();
        for (String patient : citedPatients) {
            passages.add(new Passage(passages.size() + 1, ChunkFixture.of("s", "t", "r" + passages.size())
                    .label(new PatientLabel(patient, null, null)).text("row of " + patient).build(), 1.0, "row of " + patient));
        }
        return new Answer(outcome, text, true, passages, "extractive", List.of(), Optional.ofNullable(completeness));
    }

    private static Expected cohort(String... patients) {
        return new Expected(Set.of(patients), null, null, (long) patients.length, false);
    }

    @Test
    void aCountThatIsOnlyTheLengthOfAListIsStatedByThatListListedExactlyFromASet() {
        SetQuestion q = question("patient-list", "values", "count");
        Expected truth = Expected.of(List.of("values", "count"), List.of("drug"), List.of(List.of("Aspirin"), List.of("Heparin")));
        SetResult orders = new SetResult(SetResult.Output.ROWS, null, 5, 1, List.of(), List.of(),
                List.of(new SetResult.Value("Aspirin", 3, 1), new SetResult.Value("Heparin", 2, 1)), List.of(), List.of(), true);
        SetResult missing = new SetResult(SetResult.Output.ROWS, null, 3, 1, List.of(), List.of(),
                List.of(new SetResult.Value("Aspirin", 3, 1)), List.of(), List.of(), true);

        assertThat(truth.countOfList()).isTrue();
        assertThat(SetScore.of(q, truth, ReplyReading.of(setAnswer(orders, COMPLETE), NUMBERS), null).countRight()).isTrue();
        assertThat(SetScore.of(q, truth, ReplyReading.of(setAnswer(missing, COMPLETE), NUMBERS), null).countRight()).isFalse();
        assertThat(Expected.of(List.of("count"), List.of("count"), List.of(List.of("2"))).countOfList())
                .as("a count column is counted, not implied").isFalse();
    }

    @Test
    void aCountOfNothingIsReadAsZeroWhetherItCountsRowsOrPatients() {
        SetResult none = new SetResult(SetResult.Output.COUNT, null, 0, 0, List.of(), List.of(), List.of(), List.of(),
                List.of(), true);

        assertThat(ReplyReading.of(setAnswer(none, COMPLETE), NUMBERS).counts()).containsExactly(0L);
    }

    @Test
    void cohortRecallAndPrecisionComeFromThePatientsTheSetLists() {
        SetQuestion q = question("cohort", "patients", "count");
        ReplyReading reply = ReplyReading.of(setAnswer(patients(SetResult.Output.PATIENTS,
                List.of("10000001", "10000002", "10000004"), false), null), NUMBERS);

        SetScore score = SetScore.of(q, cohort("10000001", "10000002", "10000003"), reply, null);

        assertThat(reply.source()).isEqualTo(ReplyReading.SET);
        assertThat(score.patientRecall()).isEqualTo(2.0 / 3);
        assertThat(score.patientPrecision()).isEqualTo(2.0 / 3);
        assertThat(score.countRight()).isTrue();
        assertThat(score.exact()).isFalse();
        assertThat(score.falseAnswer()).isTrue();
        assertThat(score.falseComplete()).isFalse();
    }

    @Test
    void aCompleteLabelOnAWrongSetIsAFalseCompleteAndOnTheRightSetIsNot() {
        SetQuestion q = question("cohort", "patients");
        Expected truth = cohort("10000001", "10000002");

        SetScore wrong = SetScore.of(q, truth, ReplyReading.of(setAnswer(patients(SetResult.Output.PATIENTS,
                List.of("10000001"), true), COMPLETE), NUMBERS), null);
        SetScore listedWholeButPartial = SetScore.of(q, truth, ReplyReading.of(setAnswer(patients(SetResult.Output.PATIENTS,
                List.of("10000001"), true), new Completeness(Completeness.Kind.PARTIAL, "words", null)), NUMBERS), null);
        SetScore right = SetScore.of(q, truth, ReplyReading.of(setAnswer(patients(SetResult.Output.PATIENTS,
                List.of("10000002", "10000001"), true), COMPLETE), NUMBERS), null);
        SetScore labelledByCompleteness = SetScore.of(q, truth,
                ReplyReading.of(textAnswer(Outcome.ANSWER, "Complete list: 1 patient", COMPLETE, "10000001"), NUMBERS), null);

        assertThat(wrong.completeLabel()).isTrue();
        assertThat(wrong.falseComplete()).isTrue();
        assertThat(listedWholeButPartial.completeLabel()).as("a set listed whole under a PARTIAL label promises no more").isFalse();
        assertThat(listedWholeButPartial.falseComplete()).isFalse();
        assertThat(right.exact()).isTrue();
        assertThat(right.falseComplete()).isFalse();
        assertThat(labelledByCompleteness.falseComplete()).isTrue();

        SetFigures figures = new SetFigures();
        List.of(wrong, right, labelledByCompleteness).forEach(figures::add);
        @SuppressWarnings("unchecked")
        Map<String, Object> overall = (Map<String, Object>) figures.figures().get("overall");
        assertThat(overall).containsEntry("questions", 3).containsEntry("exact", 1).containsEntry("complete_labels", 3)
                .containsEntry("false_complete_labels", 2).containsEntry("false_answers", 2).containsEntry("scored_from_set", 2);
    }

    @Test
    void aListIsCompleteOnlyWithEveryExpectedValueAndNoOther() {
        SetQuestion q = question("patient-list", "values", "count");
        Expected truth = new Expected(null, Set.of("Essential hypertension", "Anemia"), null, 2L, false);
        SetResult exact = new SetResult(SetResult.Output.VALUES, "description", 3, 1, List.of(), List.of(),
                List.of(new SetResult.Value("anemia", 1, 1), new SetResult.Value("Essential  hypertension", 2, 1)),
                List.of(), List.of(), true);
        SetResult extra = new SetResult(SetResult.Output.VALUES, "description", 4, 1, List.of(), List.of(),
                List.of(new SetResult.Value("Anemia", 1, 1), new SetResult.Value("Essential hypertension", 2, 1),
                        new SetResult.Value("Gingivitis", 1, 1)), List.of(), List.of(), true);

        SetScore complete = SetScore.of(q, truth, ReplyReading.of(setAnswer(exact, COMPLETE), NUMBERS), null);
        SetScore withExtra = SetScore.of(q, truth, ReplyReading.of(setAnswer(extra, COMPLETE), NUMBERS), null);

        assertThat(complete.listComplete()).isTrue();
        assertThat(complete.countRight()).isTrue();
        assertThat(complete.exact()).isTrue();
        assertThat(withExtra.valueRecall()).isEqualTo(1.0);
        assertThat(withExtra.listComplete()).isFalse();
        assertThat(withExtra.countRight()).isFalse();
        assertThat(withExtra.falseComplete()).isTrue();
    }

    @Test
    void anUnanswerableQuestionIsRightWhenRefusedAndAFalseAnswerWhenAnswered() {
        SetQuestion q = new SetQuestion(1, "un-1", "unanswerable", "q", null, null, List.of("refuse"),
                Map.of("refuse", true), Map.of(), null);

        SetScore refused = SetScore.of(q, Expected.REFUSAL, ReplyReading.of(
                textAnswer(Outcome.REFUSED, "No record answers this.", null), NUMBERS), null);
        SetScore clarified = SetScore.of(q, Expected.REFUSAL, ReplyReading.of(
                textAnswer(Outcome.CLARIFY, "Which patient?", null), NUMBERS), null);
        SetScore answered = SetScore.of(q, Expected.REFUSAL, ReplyReading.of(
                textAnswer(Outcome.ANSWER, "Six records.", Completeness.MOST_RELEVANT, "10000001"), NUMBERS), null);

        assertThat(refused.exact()).isTrue();
        assertThat(refused.falseAnswer()).isFalse();
        assertThat(clarified.exact()).isTrue();
        assertThat(answered.exact()).isFalse();
        assertThat(answered.falseAnswer()).isTrue();
        assertThat(answered.falseComplete()).isFalse();

        SetScore refusedAnswerable = SetScore.of(question("cohort", "patients"), cohort("10000001"),
                ReplyReading.of(textAnswer(Outcome.REFUSED, "No record holds it.", null), NUMBERS), null);
        assertThat(refusedAnswerable.exact()).isFalse();
        assertThat(refusedAnswerable.falseAnswer()).isFalse();
        assertThat(refusedAnswerable.patientRecall()).isEqualTo(0.0);
        assertThat(refusedAnswerable.patientPrecision()).isNull();
    }

    @Test
    void withoutASetTheTextAndTheCitedRowsAreRead() {
        Answer answer = textAnswer(Outcome.ANSWER, "Complete list: 3 patients with 5 records holding \"x\" [1] [2].\n"
                + "- patient 10000001: [1]\n- patient 10000002: [2]\n- MRN-10000009, code E11.9 on 2024-08-31", COMPLETE,
                "10000003");

        ReplyReading reply = ReplyReading.of(answer, NUMBERS);
        SetScore score = SetScore.of(question("cohort", "patients", "count"),
                cohort("10000001", "10000002", "10000003"), reply, null);

        assertThat(reply.source()).isEqualTo(ReplyReading.TEXT);
        assertThat(reply.patients()).containsExactlyInAnyOrder("10000001", "10000002", "10000003");
        assertThat(reply.counts()).containsExactly(3L);
        assertThat(reply.values()).isNull();
        assertThat(score.exact()).isTrue();

        ReplyReading citationFirst = ReplyReading.of(textAnswer(Outcome.ANSWER, "[1] 2024-08-31: 12 orders", null), NUMBERS);
        assertThat(citationFirst.counts()).containsExactly(12L);
    }

    @Test
    void aTextListIsScoredOnPresenceAndRowsOnEveryCellWithTimesByDate() {
        Answer answer = textAnswer(Outcome.ANSWER, "Admission 28196804 on 2193-11-23T19:15, OBSERVATION ADMIT; anemia.", null);
        ReplyReading reply = ReplyReading.of(answer, NUMBERS);

        SetScore row = SetScore.of(question("latest", "rows"), new Expected(null, null,
                List.of(List.of("28196804", "2193-11-23 19:15:00", "OBSERVATION ADMIT")), null, false), reply, null);
        SetScore otherRow = SetScore.of(question("latest", "rows"), new Expected(null, null,
                List.of(List.of("28196805", "2193-11-23 19:15:00", "OBSERVATION ADMIT")), null, false), reply, null);
        SetScore values = SetScore.of(question("patient-list", "values"),
                new Expected(null, Set.of("Anemia", "Gingivitis"), null, null, false), reply, null);

        assertThat(row.rowRecall()).isEqualTo(1.0);
        assertThat(row.exact()).isTrue();
        assertThat(otherRow.rowRecall()).isEqualTo(0.0);
        assertThat(values.valueRecall()).isEqualTo(0.5);
        assertThat(values.listComplete()).isFalse();

        Expected female = new Expected(null, Set.of("F"), null, null, false);
        assertThat(SetScore.of(question("patient-attribute", "values"), female, reply, null).listComplete()).isFalse();
        assertThat(SetScore.of(question("patient-attribute", "values"), female,
                ReplyReading.of(textAnswer(Outcome.ANSWER, "gender: F, anchor age: 52", null), NUMBERS), null).exact()).isTrue();
    }

    @Test
    void aQuestionAboutOnePatientIsAnsweredAboutThatPatientOnlyWhenNoOtherIsCited() {
        SetQuestion q = question("patient-list", "values");
        Expected truth = new Expected(null, Set.of("row of 10000001"), null, null, false);

        SetScore only = SetScore.of(q, truth, ReplyReading.of(textAnswer(Outcome.ANSWER, "Records:", null, "10000001", "10000001"),
                NUMBERS), "10000001");
        SetScore foreign = SetScore.of(q, truth, ReplyReading.of(textAnswer(Outcome.ANSWER, "Records:", null, "10000001", "10000002"),
                NUMBERS), "10000001");

        assertThat(only.scopedOnly()).isTrue();
        assertThat(only.foreignCitations()).isZero();
        assertThat(foreign.scopedOnly()).isFalse();
        assertThat(foreign.foreignCitations()).isEqualTo(1);
    }
}

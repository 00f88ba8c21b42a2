package org.chartstream.evaluation.sets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExpectedTest {

    @Test
    void theAnswerKeysAreFilledFromTheSqlResultAsTheFileDescribes() {
        List<List<String>> result = List.of(Arrays.asList("10000002", "9", "4019", "Hypertension"),
                Arrays.asList("10000001", "10", "I10", "Hypertension"), Arrays.asList("10000001", "10", "E11", null));

        Expected e = Expected.of(List.of("patients", "values", "rows", "count"), List.of("subject_id", "v", "code", "title"), result);

        assertThat(e.patients()).containsExactlyInAnyOrder("10000001", "10000002");
        assertThat(e.values()).containsExactly("Hypertension");
        assertThat(e.rows()).hasSize(3);
        assertThat(e.count()).isEqualTo(2L);
        assertThat(Expected.of(List.of("count"), List.of("count"), List.of(List.of("17"))).count()).isEqualTo(17L);
        assertThat(Expected.of(List.of("values", "count"), List.of("drug"), List.of(List.of("a"), List.of("b"))).count())
                .isEqualTo(2L);
        assertThat(Expected.of(List.of("refuse"), List.of("count"), List.of(List.of("0")))).isEqualTo(Expected.REFUSAL);
    }

    @Test
    void aStoredAnswerThatDiffersFromTheSqlsIsReportedByKey() {
        Expected e = Expected.of(List.of("patients", "count"), List.of("subject_id"), List.of(List.of("1"), List.of("2")));

        assertThat(e.mismatches(Map.of("patients", List.of("2", "1"), "count", 2L))).isEmpty();
        assertThat(e.mismatches(Map.of("patients", List.of("1"), "count", 2L))).containsExactly("patients");
        assertThat(e.mismatches(new java.util.HashMap<>(Map.of("count", 3L)))).containsExactly("count");
        java.util.Map<String, Object> unstored = new java.util.HashMap<>();
        unstored.put("patients", null);
        assertThat(e.mismatches(unstored)).isEmpty();
    }

    @Test
    void placeholdersAreFilledAsTextInTheQuestionAndAsQuotedLiteralsInTheSql() {
        SetQuestion q = new SetQuestion(4, "l-1", "patient-list", "What does {patient} take?", "x", "p", List.of("values"),
                Map.of(), Map.of(), null);
        Map<String, String> row = Map.of("patient", "Ann O'Neil", "patient_no", "MRN-1");

        assertThat(SqlTruth.fill(q, "What does {patient} take?", row, false)).isEqualTo("What does Ann O'Neil take?");
        assertThat(SqlTruth.fill(q, "WHERE no = {patient_no} AND n = {patient}", row, true))
                .isEqualTo("WHERE no = 'MRN-1' AND n = 'Ann O''Neil'");
        assertThatThrownBy(() -> SqlTruth.fill(q, "{mrn}", row, true))
                .hasMessageStartingWith("l-1 (line 4): placeholder {mrn} is no column of its params SQL");
    }
}

package org.chartstream.evaluation.sets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SetQuestionFileTest {
    private static final String COHORT = "{\"id\": \"dx-01\", \"kind\": \"cohort\", \"question\": \"Which patients have X?\","
            + " \"sql\": \"SELECT 1\", \"answer\": {\"patients\": [3, 1], \"count\": 2}}";

    @Test
    void aLineBecomesAQuestionWithTheKeysItIsScoredOn() {
        List<SetQuestion> questions = SetQuestionFile.parse("f", List.of(COHORT, "",
                "{\"id\": \"u-1\", \"kind\": \"unanswerable\", \"question\": \"Why?\", \"sql\": null, \"answer\": {\"refuse\": true},"
                        + " \"scope\": {\"subject_id\": 10000001}, \"why\": \"no such table\"}",
                "{\"id\": \"fu-1b\", \"kind\": \"follow-up\", \"question\": \"And they?\", \"sql\": \"SELECT 1\","
                        + " \"answer\": {\"values\": null}, \"conversation\": \"fu-1\"}"));

        assertThat(questions).extracting(SetQuestion::id).containsExactly("dx-01", "u-1", "fu-1b");
        assertThat(questions.get(0).scored()).containsExactly("patients", "count");
        assertThat(questions.get(0).stored()).containsEntry("patients", List.of("3", "1")).containsEntry("count", 2L);
        assertThat(questions.get(0).line()).isEqualTo(1);
        assertThat(questions.get(1).unanswerable()).isTrue();
        assertThat(questions.get(1).scope()).isEqualTo(Map.of("subject_id", "10000001"));
        assertThat(questions.get(1).line()).isEqualTo(3);
        assertThat(questions.get(2).conversation()).isEqualTo("fu-1");
        assertThat(questions.get(2).stored()).containsEntry("values", null);
    }

    @Test
    void errorsNameTheFileTheLineAndTheField() {
        assertThatThrownBy(() -> SetQuestionFile.parse("q.jsonl", List.of(COHORT, COHORT.replace("\"kind\": \"cohort\", ", ""))))
                .hasMessage("q.jsonl line 2: field 'kind': missing");
        assertThatThrownBy(() -> SetQuestionFile.parse("q.jsonl", List.of(COHORT.replace("\"count\"", "\"total\""))))
                .hasMessageStartingWith("q.jsonl line 1: field 'answer.total': unknown answer key");
        assertThatThrownBy(() -> SetQuestionFile.parse("q.jsonl", List.of(COHORT.replace("\"sql\": \"SELECT 1\"", "\"sql\": null"))))
                .hasMessageStartingWith("q.jsonl line 1: field 'sql': missing");
        assertThatThrownBy(() -> SetQuestionFile.parse("q.jsonl", List.of(COHORT, COHORT)))
                .hasMessage("q.jsonl line 2: field 'id': 'dx-01' is already the id of an earlier line");
        assertThatThrownBy(() -> SetQuestionFile.parse("q.jsonl", List.of("", COHORT.replace("\"count\": 2", "\"count\": \"two\""))))
                .hasMessage("q.jsonl line 2: field 'answer.count': must be an integer or null");
        assertThatThrownBy(() -> SetQuestionFile.parse("q.jsonl", List.of(COHORT.replace("\"question\": \"Which patients have X?\"", "\"question\": 7"))))
                .hasMessage("q.jsonl line 1: field 'question': must be a non-empty string");
        assertThatThrownBy(() -> SetQuestionFile.parse("q.jsonl", List.of(COHORT.replace("\"kind\"", "\"kidn\""))))
                .hasMessageStartingWith("q.jsonl line 1: field 'kidn': unknown field");
        assertThatThrownBy(() -> SetQuestionFile.parse("q.jsonl", List.of("{\"id\": \"x\"")))
                .hasMessageStartingWith("q.jsonl line 1: not a JSON object");
        assertThatThrownBy(() -> SetQuestionFile.parse("q.jsonl", List.of(COHORT.replace("{\"patients\": [3, 1], \"count\": 2}",
                "{\"refuse\": true, \"count\": 0}"))))
                .hasMessageStartingWith("q.jsonl line 1: field 'answer': 'refuse' is the whole answer");
        assertThatThrownBy(() -> SetQuestionFile.parse("q.jsonl", List.of(" ")))
                .hasMessage("q.jsonl: holds no question");
    }

    @Test
    void theShippedFilesAreRead() {
        List<SetQuestion> mimic = SetQuestionFile.read(Path.of("../eval/mimic/questions.jsonl"));
        List<SetQuestion> clinical = SetQuestionFile.read(Path.of("../eval/clinical-sets/questions.jsonl"));

        assertThat(mimic).hasSize(113);
        assertThat(mimic).filteredOn(SetQuestion::unanswerable).hasSize(16);
        assertThat(clinical).extracting(SetQuestion::kind).contains("negation", "drug-class", "paraphrased-concept", "latest",
                "earliest", "time-window", "count", "patient-list", "current-medications", "field-values", "follow-up");
        assertThat(clinical).filteredOn(q -> q.params() != null).allSatisfy(q -> assertThat(q.scope()).containsKey("patient_no"));
    }
}

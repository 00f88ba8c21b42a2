package org.chartstream.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.chartstream.schemas.AnswerCompleteness;
import org.chartstream.schemas.CohortSummary;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;
import org.chartstream.schemas.SetOutput;
import org.chartstream.schemas.SetResult;
import org.chartstream.schemas.SetValue;
import org.junit.jupiter.api.Test;

class ReplyFormatTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String QUESTION = "How is amoxicillin administered?";

    private static ReplyEvent.Builder answer() {
        return ReplyEvent.newBuilder().setRequestId("r1").setSeq(2).setType(ReplyType.ANSWER).setTsMs(0)
                .setText("amoxicillin is given PO (20 orders, 16 patients) and IV (1 order, 1 patient)").setExtractive(true);
    }

    private static SetResult routes() {
        return SetResult.newBuilder().setOutput(SetOutput.VALUES).setField("route").setRows(21).setPatients(17)
                .setValues(List.of(new SetValue("PO", 20L, 16L), new SetValue("IV", 1L, 1L)))
                .setRowIds(List.of("mimic:prescriptions:1")).setConcepts(List.of("amoxicillin")).setComplete(true).build();
    }

    @Test
    void jsonShowsAWholeSetAnswersStructuredResultAsFields() throws Exception {
        ReplyEvent reply = answer().setCompleteness(AnswerCompleteness.COMPLETE)
                .setCompletenessReason("every amoxicillin order was read").setSetResult(routes()).build();

        JsonNode o = JSON.readTree(ReplyFormat.json(QUESTION, List.of(reply)));

        assertThat(o.get("completeness").asText()).isEqualTo("complete");
        assertThat(o.get("completeness_reason").asText()).isEqualTo("every amoxicillin order was read");
        JsonNode set = o.get("set");
        assertThat(set.get("output").asText()).isEqualTo("values");
        assertThat(set.get("field").asText()).isEqualTo("route");
        assertThat(set.get("rows").asLong()).isEqualTo(21);
        assertThat(set.get("patients").asLong()).isEqualTo(17);
        assertThat(set.get("values")).hasSize(2);
        assertThat(set.get("values").get(0).get("value").asText()).isEqualTo("PO");
        assertThat(set.get("values").get(0).get("rows").asLong()).isEqualTo(20);
        assertThat(set.get("values").get(0).get("patients").asLong()).isEqualTo(16);
        assertThat(set.get("row_ids").get(0).asText()).isEqualTo("mimic:prescriptions:1");
        assertThat(set.get("concepts").get(0).asText()).isEqualTo("amoxicillin");
        assertThat(set.get("patients_listed")).isEmpty();
        assertThat(set.get("complete").asBoolean()).isTrue();
        assertThat(set.get("lists_cut").asBoolean()).isFalse();
    }

    @Test
    void jsonShowsACohortAndHasNoSetForAnOrdinaryAnswer() throws Exception {
        ReplyEvent reply = answer().setCompleteness(AnswerCompleteness.MOST_RELEVANT)
                .setCohort(CohortSummary.newBuilder().setAnchor("E11.9").setPatients(5).setRows(6).setCap(500).build()).build();

        JsonNode o = JSON.readTree(ReplyFormat.json(QUESTION, List.of(reply)));

        assertThat(o.get("completeness").asText()).isEqualTo("most_relevant");
        assertThat(o.get("cohort").get("anchor").asText()).isEqualTo("E11.9");
        assertThat(o.get("cohort").get("patients").asInt()).isEqualTo(5);
        assertThat(o.get("cohort").get("rows").asInt()).isEqualTo(6);
        assertThat(o.get("cohort").get("cap").asInt()).isEqualTo(500);
        assertThat(o.has("set")).isFalse();
    }

    @Test
    void textModeIsTheSameWithOrWithoutAStructuredResult() {
        String plain = ReplyFormat.text(QUESTION, List.of(answer().build()));

        assertThat(ReplyFormat.text(QUESTION, List.of(answer().setSetResult(routes()).build()))).isEqualTo(plain);
        assertThat(plain).isEqualTo("Q: " + QUESTION + "\n-> ANSWER (extractive)\n"
                + "amoxicillin is given PO (20 orders, 16 patients) and IV (1 order, 1 patient)\n");
    }
}

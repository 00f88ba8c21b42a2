package org.chartstream.ingest.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.chartstream.core.binding.EmbedPolicy;
import org.chartstream.core.binding.TableBinding;
import org.chartstream.core.binding.TableRole;
import org.junit.jupiter.api.Test;

class EmbedTextTest {

    /** An event table whose embedding policy is {@code embed}, with one label. */
    static TableBinding results(EmbedPolicy embed) {
        return new TableBinding("results", TableRole.EVENT, List.of("id"), "patient_id", null, null, null, List.of(), null,
                List.of("taken"), null, List.of(), List.of(), Map.of("test", "lab test"), Map.of(), List.of(), null, null, embed);
    }

    private static Map<String, String> shown(String test, String fluid, String value) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("fluid", fluid);
        fields.put("test", test);
        fields.put("value", value);
        fields.put("taken", "2180-05-06 22:25");
        return fields;
    }

    @Test
    void aFieldsPolicyEmbedsTheNamedFieldsAsLabelledLinesInThePolicysOrderAndNothingElseOfTheRow() {
        TableBinding binding = results(EmbedPolicy.fields(List.of("test", "fluid")));

        assertThat(EmbedText.of(binding, shown("Potassium", "Blood", "4.1"))).isEqualTo("lab test: Potassium\nfluid: Blood");
        assertThat(EmbedText.of(binding, shown("Potassium", "Blood", "5.9")))
                .as("two results of one test share their text").isEqualTo(EmbedText.of(binding, shown("Potassium", "Blood", "4.1")));
    }

    @Test
    void theRowPolicyAndARowShowingNoneOfTheNamedFieldsAreEmbeddedFromTheirOwnText() {
        assertThat(EmbedText.of(results(EmbedPolicy.ROW), shown("Potassium", "Blood", "4.1"))).isNull();
        assertThat(EmbedText.of(null, shown("Potassium", "Blood", "4.1"))).isNull();
        assertThat(EmbedText.of(results(EmbedPolicy.fields(List.of("specimen"))), shown("Potassium", "Blood", "4.1"))).isNull();
    }

    @Test
    void aNamedFieldTheRowLeavesBlankIsLeftOut() {
        TableBinding binding = results(EmbedPolicy.fields(List.of("test", "fluid")));

        assertThat(EmbedText.of(binding, shown("Potassium", " ", "4.1"))).isEqualTo("lab test: Potassium");
    }
}

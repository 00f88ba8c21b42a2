package org.chartstream.schemas.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class FieldCapTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static String envelope(String before, String after) {
        return "{\"before\":" + before + ",\"after\":" + after + ",\"source\":{\"table\":\"notes\"},\"op\":\"u\"}";
    }

    @Test
    void aValueOverTheCapIsCutToTheCapAndNamedWithItsImageAndSize() throws Exception {
        String big = "x".repeat(5_000);
        FieldCap.Result r = new FieldCap(1_000).apply(envelope("{\"id\":1,\"text\":\"short\"}",
                "{\"id\":1,\"text\":\"" + big + "\",\"title\":\"kept\"}"));

        assertThat(r.truncated()).containsExactly(new FieldCap.Truncated("after", "text", 5_000));
        JsonNode out = JSON.readTree(r.value());
        assertThat(out.at("/after/text").asText()).hasSize(1_000).isEqualTo(big.substring(0, 1_000));
        assertThat(out.at("/after/title").asText()).isEqualTo("kept");
        assertThat(out.at("/after/id").asInt()).isEqualTo(1);
        assertThat(out.at("/before/text").asText()).isEqualTo("short");
        assertThat(out.at("/op").asText()).isEqualTo("u");
    }

    @Test
    void bothImagesAreCappedAndEmbeddedSchemasAreKept() throws Exception {
        String big = "y".repeat(3_000);
        String value = "{\"schema\":{\"type\":\"struct\"},\"payload\":" + envelope("{\"text\":\"" + big + "\"}", "{\"text\":\"" + big + "\"}") + "}";
        FieldCap.Result r = new FieldCap(100).apply(value);

        assertThat(r.truncated()).extracting(FieldCap.Truncated::image).containsExactly("before", "after");
        JsonNode out = JSON.readTree(r.value());
        assertThat(out.at("/payload/before/text").asText()).hasSize(100);
        assertThat(out.at("/payload/after/text").asText()).hasSize(100);
        assertThat(out.at("/schema/type").asText()).isEqualTo("struct");
    }

    @Test
    void eventsWithinTheCapAreReturnedAsTheyAre() {
        String value = envelope("null", "{\"id\":1,\"text\":\"" + "z".repeat(900) + "\"}");
        FieldCap cap = new FieldCap(1_000);

        assertThat(cap.apply(value).value()).isSameAs(value);
        assertThat(cap.apply(value).truncated()).isEmpty();
        assertThat(cap.apply(null).value()).isNull();
        assertThat(cap.apply("not json " + "q".repeat(5_000)).truncated()).isEmpty();
    }

    @Test
    void aCutNeverSplitsAMultiByteCharacter() {
        String text = "é".repeat(10) + "😀😀"; // 2 bytes each, then 4 bytes each
        assertThat(FieldCap.truncate(text, 5)).isEqualTo("éé");
        assertThat(FieldCap.truncate(text, 23)).isEqualTo("é".repeat(10));
        assertThat(FieldCap.truncate(text, 24)).isEqualTo("é".repeat(10) + "😀");
        assertThat(FieldCap.truncate("abc", 10)).isEqualTo("abc");
        assertThat(FieldCap.utf8Length(text)).isEqualTo(text.getBytes(StandardCharsets.UTF_8).length);
    }

    @Test
    void aFieldOverTheCapInMultiByteTextIsFoundEvenWhenItsCharactersAreFewer() throws Exception {
        String text = "中".repeat(400); // 400 chars, 1200 bytes
        FieldCap.Result r = new FieldCap(1_000).apply(envelope("null", "{\"text\":\"" + text + "\"}"));

        assertThat(r.truncated()).containsExactly(new FieldCap.Truncated("after", "text", 1_200));
        String cut = JSON.readTree(r.value()).at("/after/text").asText();
        assertThat(cut.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(1_000).isGreaterThan(996);
    }

    @Test
    void theReasonNamesTableRowAndFieldButNotTheValue() {
        FieldCap cap = new FieldCap(1_048_576);
        String reason = cap.reason("public.clinical_notes", "17", new FieldCap.Truncated("after", "note_text", 5_242_880));

        assertThat(reason).isEqualTo("table public.clinical_notes row 17: field 'note_text' (after) has 5242880 bytes, more than"
                + " ingest.max-field-bytes (1048576); it was truncated to 1048576 bytes and the row is still indexed");
        assertThatThrownBy(() -> new FieldCap(0)).isInstanceOf(IllegalArgumentException.class);
    }
}

package org.chartstream.ingest.project;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RowImageTest {
    @Test
    void keepsEverythingButExcludedFieldsAndSurvivesItsEncoding() {
        Map<String, String> after = new LinkedHashMap<>();
        after.put("note_id", "1");
        after.put("ssn", "999-00-1111");
        after.put("note_text", "line one\nline \"two\"");
        after.put("stop_date", null);
        TableProjection projection = new TableProjection("notes", List.of(), Set.of("ssn"), "patient_id");

        RowImage image = RowImage.of(2, 3, "lsn:9", 77L, after, projection);

        assertThat(image.row()).containsOnlyKeys("note_id", "note_text", "stop_date");
        assertThat(RowImage.decode(image.encode())).isEqualTo(image);
        assertThat(image.writtenTo(5, 4)).isEqualTo(new RowImage(5, 4, "lsn:9", 77L, image.row()));
        assertThat(image.encode()).as("a row without lookups or encounter keeps its encoding").doesNotContain("unresolved", "via_patient");
    }

    @Test
    void remembersItsUnresolvedCodesAndThePatientItReachedThroughItsEncounter() {
        RowImage rendered = new RowImage(1, 2, "lsn:9", 77L, Map.of("hadm_id", "22595853")).rendered(2, "10014078");

        assertThat(RowImage.decode(rendered.encode())).isEqualTo(rendered);
        assertThat(rendered.writtenTo(3, 4).unresolved()).isEqualTo(2);
        assertThat(rendered.writtenTo(3, 4).viaPatient()).isEqualTo("10014078");
    }
}

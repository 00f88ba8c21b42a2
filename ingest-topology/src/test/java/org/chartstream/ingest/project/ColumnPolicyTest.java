package org.chartstream.ingest.project;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ColumnPolicyTest {
    private static final TableProjection OPEN = new TableProjection("patients", List.of(), Set.of("secret"), "patient_id");

    private static Map<String, String> row(String... pairs) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put(pairs[i], pairs[i + 1]);
        }
        return m;
    }

    @Test
    void theFirstIndexedRowRecordsTheTablesColumns() {
        ColumnPolicy.Admitted first = ColumnPolicy.admit(OPEN, Set.of(), row("patient_id", "p1", "city", "Lowell", "note", null));

        assertThat(first.known()).containsExactly("patient_id", "city", "note");
        assertThat(first.row()).containsOnlyKeys("patient_id", "city", "note");
        assertThat(first.newColumns()).isEmpty();
    }

    @Test
    void aColumnAddedLaterIsHeldBackAndNamedWhileTheKnownOnesAreIndexed() {
        Set<String> known = Set.of("patient_id", "city");
        ColumnPolicy.Admitted later = ColumnPolicy.admit(OPEN, known,
                row("patient_id", "p1", "city", "Lowell", "ssn", "999-00-1111", "secret", "x", "mood", "calm"));

        assertThat(later.row()).containsOnlyKeys("patient_id", "city");
        assertThat(later.row().values()).doesNotContain("999-00-1111");
        assertThat(later.newColumns()).containsExactly("ssn", "mood"); // excluded "secret" never leaves: nothing to review
        assertThat(later.known()).isEqualTo(known);
    }

    @Test
    void withAFieldListTheListAloneDecidesAndNothingIsRecorded() {
        TableProjection listed = new TableProjection("patients", List.of("city", "ssn"), Set.of(), "patient_id");
        Map<String, String> after = row("patient_id", "p1", "city", "Lowell", "ssn", "1");
        ColumnPolicy.Admitted admitted = ColumnPolicy.admit(listed, Set.of("patient_id"), after);

        assertThat(admitted.row()).isEqualTo(after);
        assertThat(admitted.newColumns()).isEmpty();
        assertThat(admitted.known()).containsExactly("patient_id");
    }

    @Test
    void theRecordedColumnsSurviveTheirEncoding() {
        Set<String> known = ColumnPolicy.admit(OPEN, Set.of(), row("a", "1", "b_c", "2")).known();
        assertThat(ColumnPolicy.decode(ColumnPolicy.encode(known))).containsExactly("a", "b_c");
        assertThat(ColumnPolicy.decode(null)).isEmpty();
    }
}

package org.chartstream.query;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.chartstream.retrieval.SetResult;
import org.chartstream.schemas.SetAudit;
import org.chartstream.schemas.SetOutput;
import org.junit.jupiter.api.Test;

class WireSetResultTest {

    @Test
    void everyOutputKindHasItsWireKind() {
        for (SetResult.Output output : SetResult.Output.values()) {
            SetResult set = new SetResult(output, null, 1, 1, List.of(), List.of(), List.of(), List.of(), List.of(), true);

            assertThat(WireSetResult.of(Optional.of(set)).getOutput()).hasToString(output.name());
        }
        assertThat(WireSetResult.of(Optional.empty())).isNull();
    }

    @Test
    void aPatientListWithinTheBudgetIsListedWhole() {
        List<String> numbers = IntStream.range(0, 5_000).mapToObj(i -> "MRN-" + i).toList();
        SetResult set = new SetResult(SetResult.Output.PATIENTS, null, 9_000, 5_000, numbers, numbers, List.of(), List.of(),
                List.of("Essential hypertension (disorder)"), true);

        org.chartstream.schemas.SetResult wire = WireSetResult.of(Optional.of(set));

        assertThat(wire.getPatientsListed()).isEqualTo(numbers);
        assertThat(wire.getComplete()).isTrue();
        assertThat(wire.getListsCut()).isFalse();
    }

    @Test
    void listsOverTheBudgetAreCutAndSaySoWithTheCountsExact() {
        List<String> rowIds = IntStream.range(0, 20_000).mapToObj(i -> "ehr:labevents:row-" + i).toList();
        SetResult set = new SetResult(SetResult.Output.ROWS, null, 20_000, 90, List.of(), List.of(), List.of(), rowIds,
                List.of("creatinine"), true);

        org.chartstream.schemas.SetResult wire = WireSetResult.of(Optional.of(set));

        assertThat(wire.getRowIds()).isNotEmpty().hasSizeLessThan(rowIds.size())
                .isEqualTo(rowIds.subList(0, wire.getRowIds().size()));
        int listedChars = wire.getRowIds().stream().mapToInt(id -> id.length() + 1).sum() + "creatinine".length() + 1;
        assertThat(listedChars).isLessThanOrEqualTo(WireSetResult.MAX_LISTED_CHARS);
        assertThat(wire.getConcepts()).containsExactly("creatinine");
        assertThat(wire.getRows()).isEqualTo(20_000);
        assertThat(wire.getPatients()).isEqualTo(90);
        assertThat(wire.getListsCut()).isTrue();
        assertThat(wire.getComplete()).as("the lists no longer hold the whole set").isFalse();
    }

    @Test
    void theAuditKeepsCountsIdsAndConceptsButNotTheValuesOrPatientsListed() {
        SetResult set = new SetResult(SetResult.Output.TOP_VALUES, "drug", 40, 12, List.of("MRN-1"), List.of("p1"),
                List.of(new SetResult.Value("Lisinopril 10 MG", 30, 10), new SetResult.Value("Amlodipine 5 MG", 10, 4)),
                List.of("ehr:medications:m1"), List.of("ACE inhibitor"), false);

        SetAudit audit = WireSetResult.audit(WireSetResult.of(Optional.of(set)));

        assertThat(audit.getOutput()).isEqualTo(SetOutput.TOP_VALUES);
        assertThat(audit.getField()).isEqualTo("drug");
        assertThat(audit.getRows()).isEqualTo(40);
        assertThat(audit.getPatients()).isEqualTo(12);
        assertThat(audit.getValuesListed()).isEqualTo(2);
        assertThat(audit.getPatientsListed()).isEqualTo(1);
        assertThat(audit.getRowIds()).containsExactly("ehr:medications:m1");
        assertThat(audit.getConcepts()).containsExactly("ACE inhibitor");
        assertThat(audit.getComplete()).isFalse();
        assertThat(audit.toString()).doesNotContain("Lisinopril", "MRN-1");
        assertThat(WireSetResult.audit(null)).isNull();
    }
}

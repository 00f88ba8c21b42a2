package org.chartstream.retrieval.cohort;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.chartstream.core.store.ChunkFixture;
import org.chartstream.core.store.PatientLabel;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.retrieval.Completeness;
import org.chartstream.retrieval.generate.Passage;
import org.junit.jupiter.api.Test;

class CohortTest {

    static StoredChunk row(String table, String key, String patientKey, String patientName, String body) {
        String header = patientName == null ? "" : "record: " + table + "\npatient: " + patientName + "\n";
        ChunkFixture chunk = ChunkFixture.of("clinic", table, key).patient(patientKey).text(header + body);
        int number = patientName == null ? -1 : patientName.indexOf(" (");
        if (number > 0) {
            chunk = chunk.label(PatientLabel.of(patientName.substring(number + 2, patientName.length() - 1),
                    patientName.substring(0, number), null));
        } else if (patientName != null) {
            chunk = chunk.label(PatientLabel.of(null, patientName, null));
        }
        return chunk.build();
    }

    private static final List<StoredChunk> ROWS = List.of(
            row("medications", "m1", "p2", "Zoe Adams (MRN-2)", "description: lisinopril 10 MG"),
            row("medications", "m2", "p1", "Bob Brown (MRN-1)", "description: lisinopril 20 MG"),
            row("medications", "m3", "p2", "Zoe Adams (MRN-2)", "description: lisinopril 5 MG"),
            row("notes", "n1", null, null, "lisinopril stock count"));

    @Test
    void rowsAreGroupedByPatientInNameOrderWithRowsWithoutAPatientLast() {
        Cohort cohort = new Cohort("lisinopril", null, List.of(), ROWS, 4, 500);
        assertThat(cohort.byPatient()).extracting(Cohort.PatientRows::label)
                .containsExactly("Bob Brown (MRN-1)", "Zoe Adams (MRN-2)", "records without a patient");
        assertThat(cohort.byPatient().get(1).rows()).extracting(c -> c.row().rowKey()).containsExactly("m1", "m3");
        assertThat(cohort.patients()).isEqualTo(2);
    }

    @Test
    void aPatientIsNamedByTheChunksLabelNotByItsText() {
        StoredChunk relabelled = ChunkFixture.of("clinic", "medications", "m9").patient("p9")
                .text("record: medications\npatient: Someone Else (MRN-0)\ndescription: lisinopril")
                .label(PatientLabel.of("MRN-9", "Ann Lee", null)).build();
        StoredChunk numberOnly = ChunkFixture.of("clinic", "medications", "m8").patient("p8")
                .text("record: medications\ndescription: lisinopril").label(PatientLabel.of("10014078", null, null)).build();
        Cohort cohort = new Cohort("lisinopril", null, List.of(), List.of(relabelled, numberOnly), 2, 500);
        assertThat(cohort.byPatient()).extracting(Cohort.PatientRows::label)
                .containsExactly("Ann Lee (MRN-9)", "patient 10014078");
    }

    @Test
    void aCompleteCohortSaysSoCountsAndCitesEveryRowOnce() {
        Cohort cohort = new Cohort("lisinopril", null, List.of("medications"), ROWS.subList(0, 3), 3, 500);
        CohortAnswer answer = CohortAnswer.of(cohort, 600);

        assertThat(answer.passages()).extracting(Passage::index).containsExactly(1, 2, 3);
        assertThat(answer.passages()).extracting(p -> p.chunk().row().rowKey()).containsExactly("m2", "m1", "m3");
        assertThat(answer.text()).startsWith("Complete list: 2 patients with 3 records in medications holding \"lisinopril\"")
                .contains("- Bob Brown (MRN-1): [1]\n- Zoe Adams (MRN-2): [2] [3]");
        Completeness completeness = cohort.completeness();
        assertThat(completeness.kind()).isEqualTo(Completeness.Kind.COMPLETE);
        assertThat(completeness.cohort()).isEqualTo(new Completeness.CohortSummary("lisinopril", 2, 3, 500));
    }

    @Test
    void aCohortCutAtTheCapIsPartialAndSaysWhy() {
        Cohort cohort = new Cohort("lisinopril", null, List.of(), ROWS.subList(0, 2), 4, 2);
        CohortAnswer answer = CohortAnswer.of(cohort, 600);

        assertThat(answer.text()).startsWith("Partial list: 2 of 4 records hold \"lisinopril\"; only the first 2 are listed"
                + " (query.cohort-cap), from 2 patients.");
        assertThat(cohort.completeness().kind()).isEqualTo(Completeness.Kind.PARTIAL);
        assertThat(cohort.completeness().reason()).contains("2 of 4").contains("query.cohort-cap");
        assertThat(cohort.completeness().cohort().cap()).isEqualTo(2);
    }

    @Test
    void aCorrectedWordIsSaidAndLongRowsAreQuotedWithinTheLimit() {
        StoredChunk longRow = row("notes", "n9", "p3", "Al Cole (MRN-3)", "plan: lisinopril. " + "x".repeat(100));
        CohortAnswer answer = CohortAnswer.of(new Cohort("lisinopril", "lisinoprl", List.of(), List.of(longRow), 1, 500), 40);

        assertThat(answer.text()).startsWith("No record mentions \"lisinoprl\"; listing the records that mention \"lisinopril\""
                + " instead (did you mean \"lisinopril\"?).");
        assertThat(answer.passages().get(0).text()).hasSizeLessThanOrEqualTo(42).endsWith("…");
    }
}

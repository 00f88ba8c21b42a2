package org.chartstream.datasets;

import org.chartstream.datasets.AciBenchReader.AciPatient;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Reads the real aci-bench data from ../shared/data/aci-bench. */
class AciBenchReaderTest {

    @Test
    void distinctCleanedPatientsInEncounterOrder() {
        List<AciPatient> patients = AciBenchReader.readPatients(DatasetSpec.defaultAciBenchDir());
        // 207 encounters; rows without a usable first or family name are skipped; names repeat across encounters
        assertThat(patients).hasSizeBetween(120, 140);
        assertThat(patients.get(0).fullName()).isEqualTo("Martha Collins");
        assertThat(patients.get(0).notes().get(0).encounterId()).isEqualTo("D2N001");
        assertThat(patients.get(0).notes().get(0).chiefComplaint()).isEqualTo("annual exam");
        assertThat(patients.get(0).gender()).isEqualTo("female");
        assertThat(patients.get(0).ageYears()).isEqualTo(50);
        Set<String> seen = new HashSet<>();
        Set<String> encounters = new HashSet<>();
        for (AciPatient p : patients) {
            assertThat(p.firstName()).matches("\\p{Lu}[\\p{L} .'\\-]*").doesNotEndWith(" ");
            assertThat(p.lastName()).matches("\\p{Lu}[\\p{L} .'\\-]*").doesNotEndWith(" ");
            assertThat(seen.add(p.fullName().toLowerCase())).as(p.fullName()).isTrue();
            assertThat(p.notes()).isNotEmpty();
            p.notes().forEach(n -> {
                assertThat(encounters.add(n.encounterId())).isTrue();
                assertThat(n.noteText()).isNotBlank();
            });
        }
        // a patient whose name is written in lower case in one split and capitalised in another is one patient
        AciPatient king = patients.stream().filter(p -> p.fullName().equals("Michelle King")).findFirst()
                .orElseThrow();
        assertThat(king.notes().size()).isGreaterThan(1);
    }

    @Test
    void nameCleaning() {
        assertThat(AciBenchReader.cleanName("Brian ")).isEqualTo("Brian");
        assertThat(AciBenchReader.cleanName("  michelle ")).isEqualTo("Michelle");
        assertThat(AciBenchReader.cleanName("MARY ANN")).isEqualTo("Mary Ann");
        assertThat(AciBenchReader.cleanName("o'neil-smith")).isEqualTo("O'Neil-Smith");
        assertThat(AciBenchReader.cleanName("McDonald")).isEqualTo("McDonald");
        assertThat(AciBenchReader.cleanName("")).isNull();
        assertThat(AciBenchReader.cleanName("  ")).isNull();
        assertThat(AciBenchReader.cleanName("33")).isNull();
        assertThat(AciBenchReader.cleanName(null)).isNull();
        assertThat(AciBenchReader.gender("female ")).isEqualTo("female");
        assertThat(AciBenchReader.gender("")).isNull();
    }
}

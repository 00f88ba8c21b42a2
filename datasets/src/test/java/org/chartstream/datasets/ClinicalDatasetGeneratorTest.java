package org.chartstream.datasets;

import org.chartstream.datasets.AciBenchReader.AciNote;
import org.chartstream.datasets.AciBenchReader.AciPatient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.Period;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Runs Synthea for a small spec (8 patients): once filling the cache, once more bypassing it, and reads the cache
 * back; then checks determinism, referential integrity, the aci-bench identities, the caps and the code map.
 */
class ClinicalDatasetGeneratorTest {

    static final DatasetSpec SPEC = DatasetSpec.defaults().withPatients(8);

    @TempDir
    static Path cacheDir;

    static final List<String> progress = new ArrayList<>();
    static ClinicalDataset first;
    static ClinicalDataset fresh;
    static ClinicalDataset cached;
    static PrintStream outBefore;
    static PrintStream outDuringProgress;
    static PrintStream outAfter;

    @BeforeAll
    static void generate() {
        outBefore = System.out;
        ClinicalDatasetGenerator gen = new ClinicalDatasetGenerator(cacheDir, line -> {
            progress.add(line);
            if (line.startsWith("synthea:")) {
                outDuringProgress = System.out;
            }
        });
        first = gen.generate(SPEC);
        fresh = gen.generateFresh(SPEC);
        cached = gen.generate(SPEC);
        outAfter = System.out;
    }

    @Test
    void syntheaIsQuietButProgressCallbacksSeeTheRealStdout() {
        assertThat(outAfter).isSameAs(outBefore);
        assertThat(outDuringProgress).isSameAs(outBefore);
        assertThat(progress).anyMatch(l -> l.startsWith("synthea: 8/8 patients"));
    }

    @Test
    void sameSeedGivesIdenticalRowsAndTheCacheRoundTrips() {
        for (String table : ClinicalSchema.TABLES) {
            List<ClinicalRow> expected = List.copyOf(first.rows(table));
            assertThat(List.<ClinicalRow>copyOf(fresh.rows(table))).as(table).containsExactlyElementsOf(expected);
            assertThat(List.<ClinicalRow>copyOf(cached.rows(table))).as(table + " from cache")
                    .containsExactlyElementsOf(expected);
        }
        assertThat(fresh).isEqualTo(first);
        assertThat(Files.isRegularFile(cacheDir.resolve("dataset-s42-p8").resolve("manifest.json"))).isTrue();
        assertThat(progress).anyMatch(l -> l.contains("read from cache"));
    }

    @Test
    void rowCountsAndIds() {
        assertThat(first.patients()).hasSize(8);
        assertThat(first.encounters()).isNotEmpty();
        assertThat(first.conditions()).isNotEmpty();
        assertThat(first.medications()).isNotEmpty();
        assertThat(first.notes()).isNotEmpty();
        assertThat(first.patients()).extracting(PatientRow::patientNo)
                .containsExactly("MRN-000001", "MRN-000002", "MRN-000003", "MRN-000004", "MRN-000005",
                        "MRN-000006", "MRN-000007", "MRN-000008");
        for (String table : ClinicalSchema.TABLES) {
            List<? extends ClinicalRow> rows = first.rows(table);
            assertThat(rows.stream().map(ClinicalRow::primaryKey).collect(Collectors.toSet())).as(table)
                    .hasSize(rows.size());
            for (ClinicalRow r : rows) {
                assertThat(r.table()).isEqualTo(table);
                assertThat(List.copyOf(r.values().keySet())).isEqualTo(ClinicalSchema.dataColumns(table));
                assertThat(r.values().get(ClinicalSchema.primaryKey(table))).isEqualTo(r.primaryKey());
                assertThat(r.values().get(ClinicalSchema.patientIdColumn(table))).isEqualTo(r.patientId());
            }
        }
        assertThat(first.encounters().stream().map(EncounterRow::encounterNo).distinct().count())
                .isEqualTo(first.encounters().size());
        assertThat(first.notes().stream().map(ClinicalNoteRow::noteNo).distinct().count())
                .isEqualTo(first.notes().size());
    }

    @Test
    void everyChildRowBelongsToAnExistingPatientAndEncounter() {
        Set<UUID> patientIds = first.patients().stream().map(PatientRow::patientId).collect(Collectors.toSet());
        Map<UUID, UUID> encounterPatient = first.encounters().stream()
                .collect(Collectors.toMap(EncounterRow::encounterId, EncounterRow::patientId));
        for (String table : ClinicalSchema.TABLES) {
            for (ClinicalRow r : first.rows(table)) {
                assertThat(patientIds).as(table).contains(r.patientId());
            }
        }
        for (ConditionRow c : first.conditions()) {
            if (c.encounterId() != null) {
                assertThat(encounterPatient.get(c.encounterId())).isEqualTo(c.patientId());
            }
        }
        for (MedicationRow m : first.medications()) {
            if (m.encounterId() != null) {
                assertThat(encounterPatient.get(m.encounterId())).isEqualTo(m.patientId());
            }
        }
    }

    @Test
    void notesBelongToThePatientWithTheAciBenchName() {
        Map<String, AciPatient> byEncounter = new HashMap<>();
        List<AciPatient> aci = AciBenchReader.readPatients(SPEC.aciBenchDir());
        for (AciPatient a : aci) {
            for (AciNote n : a.notes()) {
                byEncounter.put(n.encounterId(), a);
            }
        }
        assertThat(first.patientsWithNotes()).hasSize(8);
        for (ClinicalNoteRow note : first.notes()) {
            AciPatient a = byEncounter.get(note.noteNo());
            assertThat(a).as(note.noteNo()).isNotNull();
            PatientRow p = first.patient(note.patientId()).orElseThrow();
            assertThat(p.firstName()).isEqualTo(a.firstName());
            assertThat(p.lastName()).isEqualTo(a.lastName());
            AciNote src = a.notes().stream().filter(n -> n.encounterId().equals(note.noteNo())).findFirst()
                    .orElseThrow();
            assertThat(note.noteText()).isEqualTo(src.noteText()).isNotBlank();
            assertThat(note.chiefComplaint()).isEqualTo(src.chiefComplaint());
            assertThat(note.secondaryComplaints()).isEqualTo(src.secondaryComplaints());
            assertThat(note.encounterId()).isNull();
            assertThat(note.noteDate()).isBefore(DatasetSpec.REFERENCE_DATE).isAfter(p.birthDate());
            // the aci-bench age holds on the note's date and on the reference date
            if (a.ageYears() != null) {
                assertThat(Period.between(p.birthDate(), note.noteDate()).getYears()).isEqualTo(a.ageYears());
                assertThat(p.ageOn(DatasetSpec.REFERENCE_DATE)).isEqualTo(a.ageYears());
            }
            if (a.gender() != null) {
                assertThat(p.gender()).isEqualTo(a.gender());
            }
        }
        // patients are the first distinct aci-bench identities, in order, with all of their notes
        for (int i = 0; i < 8; i++) {
            PatientRow p = first.patients().get(i);
            assertThat(p.fullName()).isEqualTo(aci.get(i).fullName());
            assertThat(first.notesOf(p.patientId())).extracting(ClinicalNoteRow::noteNo)
                    .containsExactlyElementsOf(aci.get(i).notes().stream().map(AciNote::encounterId)
                            .collect(Collectors.toList()));
        }
        assertThat(first.patients().get(0).fullName()).isEqualTo("Martha Collins");
    }

    @Test
    void capsAndDedupeAreRespected() {
        for (PatientRow p : first.patients()) {
            List<EncounterRow> enc = first.encountersOf(p.patientId());
            List<ConditionRow> cond = first.conditionsOf(p.patientId());
            List<MedicationRow> med = first.medicationsOf(p.patientId());
            assertThat(enc).hasSizeLessThanOrEqualTo(SPEC.maxEncountersPerPatient());
            assertThat(cond).hasSizeLessThanOrEqualTo(SPEC.maxConditionsPerPatient());
            assertThat(med).hasSizeLessThanOrEqualTo(SPEC.maxMedicationsPerPatient());
            assertThat(cond.stream().map(ConditionRow::snomedCode).distinct().count()).isEqualTo(cond.size());
            assertThat(med.stream().map(MedicationRow::rxnormCode).distinct().count()).isEqualTo(med.size());
            for (int i = 1; i < enc.size(); i++) {
                assertThat(enc.get(i).startTime()).isAfterOrEqualTo(enc.get(i - 1).startTime());
            }
            for (EncounterRow e : enc) {
                assertThat(e.startTime().toLocalDate()).isAfterOrEqualTo(p.birthDate())
                        .isBeforeOrEqualTo(DatasetSpec.REFERENCE_DATE);
            }
            for (ConditionRow c : cond) {
                assertThat(c.onsetDate()).isAfterOrEqualTo(p.birthDate());
                assertThat(ClinicalCodes.excludedConditionCodes()).doesNotContain(c.snomedCode());
                assertThat(c.encounterId() != null || c.active()).isTrue();
            }
            for (MedicationRow m : med) {
                assertThat(m.encounterId() != null || m.active()).isTrue();
                assertThat(m.description()).isNotBlank();
            }
        }
    }

    @Test
    void icd10MapIsWellFormedAndApplied() {
        Map<String, String> map = ClinicalCodes.snomedToIcd10();
        assertThat(map).hasSizeGreaterThanOrEqualTo(40)
                .containsEntry("59621000", "I10")
                .containsEntry("15777000", "R73.03")
                .containsEntry("714628002", "R73.03")
                .containsEntry("44054006", "E11.9");
        map.forEach((snomed, icd) -> {
            assertThat(snomed).as("SNOMED code").matches("\\d{6,18}");
            assertThat(icd).as("ICD-10 code of " + snomed).matches("[A-Z]\\d{2}(\\.\\d+)?");
        });
        assertThat(map.keySet()).doesNotContainAnyElementsOf(ClinicalCodes.excludedConditionCodes());
        for (ConditionRow c : first.conditions()) {
            assertThat(c.icd10Code()).isEqualTo(map.get(c.snomedCode()));
        }
    }

    @Test
    void extraPatientsBeyondTheAciBenchIdentitiesKeepSyntheaNamesAndHaveNoNotes(@TempDir Path tmp)
            throws Exception {
        Path data = Files.createDirectories(tmp.resolve("aci").resolve("challenge_data"));
        Files.writeString(data.resolve("tiny_metadata.csv"), String.join("\n",
                "dataset,encounter_id,id,doctor_name,patient_gender,patient_age,patient_firstname,"
                        + "patient_familyname,cc,2nd_complaints",
                "virtassist,D2N002,VA1,,female ,41.0,Ada ,Lovelace,knee pain,asthma;reflux",
                "virtassist,D2N001,VA2,,male,9-month,alan,turing,fever ,",
                "virtassist,D2N003,VA3,,female,42,ada,lovelace,follow-up,",
                "virtassist,D2N004,VA4,,male,50,,Nobody,back pain,",
                "virtassist,D2N005,VA5,,male,50,33,Digits,back pain,") + "\n", StandardCharsets.UTF_8);
        Files.writeString(data.resolve("tiny.csv"), String.join("\n",
                "dataset,encounter_id,dialogue,note",
                "virtassist,D2N001,\"[doctor] hi\n[patient] hi, \"\"doc\"\"\",\"CHIEF COMPLAINT\n\nFever, cough.\"",
                "virtassist,D2N002,\"[doctor] hello\",\"CHIEF COMPLAINT\n\nKnee pain.\"",
                "virtassist,D2N003,d,\"FOLLOW UP\"",
                "virtassist,D2N004,d,\"BACK\"",
                "virtassist,D2N005,d,\"BACK\"") + "\n", StandardCharsets.UTF_8);

        DatasetSpec spec = new DatasetSpec(7, 3, 4, 5, 3, tmp.resolve("aci"));
        ClinicalDataset d = new ClinicalDatasetGenerator(tmp.resolve("cache"), s -> { }).generateFresh(spec);

        assertThat(d.patients()).extracting(PatientRow::fullName).startsWith("Alan Turing", "Ada Lovelace");
        PatientRow alan = d.patients().get(0);
        PatientRow ada = d.patients().get(1);
        PatientRow extra = d.patients().get(2);
        assertThat(alan.gender()).isEqualTo("male");
        assertThat(Period.between(alan.birthDate(), DatasetSpec.REFERENCE_DATE).toTotalMonths()).isEqualTo(9);
        assertThat(ada.ageOn(DatasetSpec.REFERENCE_DATE)).isEqualTo(41);
        assertThat(ada.gender()).isEqualTo("female");
        assertThat(d.notesOf(alan.patientId())).singleElement().satisfies(n -> {
            assertThat(n.noteNo()).isEqualTo("D2N001");
            assertThat(n.noteText()).isEqualTo("CHIEF COMPLAINT\n\nFever, cough.");
            assertThat(n.chiefComplaint()).isEqualTo("fever");
            assertThat(n.secondaryComplaints()).isNull();
            assertThat(Period.between(alan.birthDate(), n.noteDate()).toTotalMonths()).isEqualTo(9);
        });
        assertThat(d.notesOf(ada.patientId())).extracting(ClinicalNoteRow::noteNo)
                .containsExactly("D2N002", "D2N003");
        assertThat(d.notesOf(extra.patientId())).isEmpty();
        assertThat(extra.firstName()).isNotBlank().doesNotContainPattern("\\d");
        assertThat(extra.lastName()).isNotBlank().doesNotContainPattern("\\d");
        assertThat(Set.of("Nobody", "Digits")).doesNotContain(extra.lastName());
        for (PatientRow p : d.patients()) {
            assertThat(d.encountersOf(p.patientId())).hasSizeLessThanOrEqualTo(4);
            assertThat(d.conditionsOf(p.patientId())).hasSizeLessThanOrEqualTo(5);
            assertThat(d.medicationsOf(p.patientId())).hasSizeLessThanOrEqualTo(3);
        }
        Set<UUID> ids = new HashSet<>();
        d.patients().forEach(p -> ids.add(p.patientId()));
        assertThat(ids).doesNotContainAnyElementsOf(
                first.patients().stream().map(PatientRow::patientId).collect(Collectors.toList()));
    }

    @Test
    void missingAciBenchFolderIsAClearError(@TempDir Path tmp) {
        Path missing = tmp.resolve("no-such-aci-bench");
        DatasetSpec spec = DatasetSpec.defaults().withAciBenchDir(missing);
        assertThatThrownBy(() -> new ClinicalDatasetGenerator(tmp, s -> { }).generate(spec))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(missing.toAbsolutePath().toString())
                .hasMessageContaining(DatasetSpec.ENV_ACI_BENCH_DIR);
    }

    @Test
    void defaultSpec() {
        DatasetSpec d = DatasetSpec.defaults();
        assertThat(d.seed()).isEqualTo(42);
        assertThat(d.patients()).isEqualTo(50);
        assertThat(d.maxEncountersPerPatient()).isEqualTo(10);
        assertThat(d.maxConditionsPerPatient()).isEqualTo(20);
        assertThat(d.maxMedicationsPerPatient()).isEqualTo(15);
        assertThat(d.cacheKey()).isEqualTo("dataset-s42-p50");
        assertThat(d.withCaps(5, 6, 7).cacheKey()).isEqualTo("dataset-s42-p50-e5-c6-m7");
        assertThat(Files.isDirectory(d.aciBenchDir().resolve("challenge_data"))).isTrue();
        assertThat(LocalDate.of(2025, 1, 1)).isEqualTo(DatasetSpec.REFERENCE_DATE);
    }
}

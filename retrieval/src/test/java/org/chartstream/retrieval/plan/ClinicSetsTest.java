package org.chartstream.retrieval.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.chartstream.core.binding.EmbedPolicy;
import org.chartstream.core.binding.SourceBinding;
import org.chartstream.core.binding.TableBinding;
import org.chartstream.core.binding.TableRole;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.retrieval.Completeness;
import org.chartstream.retrieval.SetResult;
import org.junit.jupiter.api.Test;

/**
 * The questions of issue 40's table on a clinic shaped like the synthetic dataset (named patients with record numbers,
 * conditions and medications described in words with start and stop dates, encounters): each is the set SQL gives,
 * and none gets a COMPLETE label over a set it did not ask for.
 */
class ClinicSetsTest {
    private static final String MARTHA = "p-martha";
    private static final String OMAR = "p-omar";
    private static final String LENA = "p-lena";

    private final RowSetIndex index = clinic();
    private final WholeSets sets = WholeSets.of(index, Map.of(RowSetIndex.SOURCE, binding()), 500, 600);

    private static TableBinding table(String name, TableRole role, String concept, String conceptField, String time, String end,
                                      List<String> fields) {
        return new TableBinding(name, role, List.of(), "patient_id", null, null, role == TableRole.PATIENT ? "patient_no"
                : role == TableRole.ENCOUNTER ? "encounter_no" : null, role == TableRole.PATIENT ? List.of("first_name", "last_name")
                : List.of(), null, time == null ? List.of() : List.of(time), end, fields, List.of(), Map.of(), Map.of(), List.of(),
                concept, conceptField, EmbedPolicy.ROW);
    }

    static SourceBinding binding() {
        return SourceBinding.of(List.of(
                table("patients", TableRole.PATIENT, null, null, null, null, List.of("patient_no", "first_name", "last_name", "gender")),
                table("encounters", TableRole.ENCOUNTER, "encounter", "description", "start_time", "stop_time",
                        List.of("encounter_no", "start_time", "stop_time", "description", "reason_description")),
                table("conditions", TableRole.EVENT, "condition", "description", "onset_date", "resolved_date",
                        List.of("onset_date", "resolved_date", "icd10_code", "description")),
                table("medications", TableRole.EVENT, "medication", "description", "start_date", "stop_date",
                        List.of("start_date", "stop_date", "description", "reason_description")),
                table("clinical_notes", TableRole.EVENT, "note", null, "note_date", null, List.of("note_date", "note_text"))));
    }

    static RowSetIndex clinic() {
        RowSetIndex index = new RowSetIndex().patient(MARTHA, "Martha Collins", "MRN-000001")
                .patient(OMAR, "Omar Haddad", "MRN-000002").patient(LENA, "Lena Novak", "MRN-000003");
        index.row("conditions", "c1", MARTHA, "onset_date", "2015-03-01", "description", "Essential hypertension (disorder)");
        index.row("conditions", "c2", MARTHA, "onset_date", "2021-06-01", "description", "Prediabetes (finding)");
        index.row("conditions", "c3", OMAR, "onset_date", "2019-01-01", "description", "Essential hypertension (disorder)");
        index.row("conditions", "c4", OMAR, "onset_date", "2020-07-01", "description", "Prediabetes (finding)");
        index.row("conditions", "c5", LENA, "onset_date", "2018-01-01", "resolved_date", "2018-02-01",
                "description", "Gingivitis (disorder)");
        index.row("medications", "m1", MARTHA, "start_date", "2015-03-02", "description", "lisinopril 10 MG Oral Tablet");
        index.row("medications", "m2", MARTHA, "start_date", "2016-01-01", "stop_date", "2017-01-01",
                "description", "simvastatin 20 MG Oral Tablet");
        index.row("medications", "m3", OMAR, "start_date", "2019-02-01", "description", "atorvastatin 40 MG Oral Tablet");
        index.row("medications", "m4", LENA, "start_date", "2018-01-01", "description", "Nystatin 100000 UNT/ML Oral Suspension");
        index.row("medications", "m5", MARTHA, "start_date", "2024-08-01", "description", "metformin 500 MG Oral Tablet");
        index.row("encounters", "e1", MARTHA, "encounter_no", "ENC-1", "start_time", "2020-01-01T09:00:00Z",
                "description", "General examination of patient (procedure)");
        index.row("encounters", "e2", MARTHA, "encounter_no", "ENC-2", "start_time", "2024-08-24T09:00:00Z",
                "description", "Encounter for problem");
        index.row("encounters", "e3", MARTHA, "encounter_no", "ENC-3", "start_time", "2024-08-31T09:00:00Z",
                "description", "Follow-up encounter", "reason_description", "Prediabetes");
        return index;
    }

    private SetResult complete(String question, String patient) {
        RetrievalFilter filter = patient == null ? RetrievalFilter.NONE : RetrievalFilter.forPatient(patient);
        SetDecision decision = sets.plan(question, filter, List.of(), List.of());
        assertThat(decision).as(question).isInstanceOf(SetDecision.Planned.class);
        SetPlan plan = ((SetDecision.Planned) decision).plan();
        return SetLabels.wholeSet(plan, sets.execute(plan));
    }

    @Test
    void aDrugClassIsEveryDrugOfTheClassNotTheWordStatin() {
        assertThat(complete("Which patients are on a statin?", null).patientsListed()).containsExactly("MRN-000001", "MRN-000002");
    }

    @Test
    void aNegationIsTheFirstSetWithoutThePatientsOfTheSecond() {
        assertThat(complete("Which patients with hypertension do not take lisinopril?", null).patientsListed())
                .containsExactly("MRN-000002");
    }

    @Test
    void aTimeWindowAfterAYearStartsTheYearAfter() {
        assertThat(complete("Which patients were diagnosed with prediabetes after 2020?", null).patientsListed())
                .containsExactly("MRN-000001");
        assertThat(complete("Which patients were diagnosed with prediabetes in 2020?", null).patientsListed())
                .containsExactly("MRN-000002");
    }

    @Test
    void thePatientsMostRecentEncounterIsTheLatestByItsStartTime() {
        assertThat(complete("When was Martha Collins's most recent encounter and what was it for?", MARTHA).rowIds())
                .containsExactly("hosp:encounters:e3");
    }

    @Test
    void aPatientsFullListsHoldEveryRowAndCurrentOnesThoseWithoutAStopDate() {
        assertThat(complete("What medications does Martha Collins take?", MARTHA).rowIds()).hasSize(3);
        assertThat(complete("What conditions does Martha Collins have?", MARTHA).rowIds()).hasSize(2);
        assertThat(complete("Which medications is Martha Collins currently taking?", MARTHA).rowIds())
                .containsExactly("hosp:medications:m1", "hosp:medications:m5");
    }

    @Test
    void aFollowUpOverTheSetListsEachPatientsConditions() {
        SetDecision decision = sets.plan("What conditions do they have?", RetrievalFilter.NONE, List.of(), List.of(MARTHA, OMAR));
        SetAnswer answer = sets.execute(((SetDecision.Planned) decision).plan());
        assertThat(answer.set().patientsListed()).containsExactly("MRN-000001", "MRN-000002");
        assertThat(answer.text()).contains("Martha Collins (MRN-000001): Essential hypertension (disorder); Prediabetes (finding)");
    }

    @Test
    void aParaphraseTheVocabularyDoesNotHoldIsNeverLabelledComplete() {
        assertThat(sets.plan("Which patients have high blood pressure?", RetrievalFilter.NONE, List.of(), List.of()))
                .isNotInstanceOf(SetDecision.Planned.class);
    }
}

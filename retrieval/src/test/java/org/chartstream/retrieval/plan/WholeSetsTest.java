package org.chartstream.retrieval.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.retrieval.Completeness;
import org.chartstream.retrieval.SetResult;
import org.chartstream.retrieval.SetResult.Output;
import org.junit.jupiter.api.Test;

/**
 * Questions of each whole-set kind on a hospital shaped like the MIMIC-IV demo ({@link Hospital}), planned and run on
 * exact row sets: each answer is the set SQL gives, and COMPLETE only when it is exactly that set.
 */
class WholeSetsTest {
    private final RowSetIndex index = Hospital.rows();
    private final WholeSets sets = WholeSets.of(index, Map.of(RowSetIndex.SOURCE, Hospital.binding()), 500, 600);

    private SetDecision plan(String question) {
        return sets.plan(question, RetrievalFilter.NONE, List.of(), List.of());
    }

    private SetDecision plan(String question, String patient) {
        return sets.plan(question, RetrievalFilter.forPatient(patient), List.of(patient), List.of());
    }

    private SetAnswer answer(SetDecision decision) {
        assertThat(decision).isInstanceOf(SetDecision.Planned.class);
        return sets.execute(((SetDecision.Planned) decision).plan());
    }

    private SetResult complete(SetDecision decision) {
        SetAnswer answer = answer(decision);
        return SetLabels.wholeSet(((SetDecision.Planned) decision).plan(), answer);
    }

    private static List<String> values(SetResult set) {
        return set.values().stream().map(SetResult.Value::value).toList();
    }

    @Test
    void aCohortByMeaningCountsEveryCodeWhoseTitleHoldsEachWordAndNamesThem() {
        SetResult set = complete(plan("Which patients have essential hypertension?"));
        assertThat(set.output()).isEqualTo(Output.PATIENTS);
        assertThat(set.patientsListed()).containsExactly("10000001", "10000002", "10000006");
        assertThat(set.patientKeys()).containsExactlyInAnyOrder("10000001", "10000002", "10000006");
        assertThat(set.patients()).isEqualTo(3);
        assertThat(set.rows()).isEqualTo(4);
        assertThat(String.join(" ", set.concepts())).contains("Unspecified essential hypertension", "Essential (primary) hypertension")
                .doesNotContain("Hypertensive heart disease");
    }

    @Test
    void aCohortByAnotherFormOfTheWordFindsTheMeaningsOfThatStem() {
        assertThat(complete(plan("Who are our type 2 diabetics?")).patientsListed())
                .as("type 2 and type II, not type I").containsExactly("10000004", "10000006");
        assertThat(complete(plan("List every patient who has been diagnosed with atrial fibrillation.")).patientsListed())
                .containsExactly("10000001", "10000006");
    }

    @Test
    void aDrugClassCountsItsMembersByStemAndNeverAWordThatOnlyEndsAlike() {
        SetResult statins = complete(plan("Which patients are on a statin?"));
        assertThat(statins.patientsListed()).as("Nystatin is no statin").containsExactly("10000001", "10000003");
        assertThat(String.join(" ", statins.concepts())).contains("Atorvastatin", "Simvastatin").doesNotContain("Nystatin");
        assertThat(complete(plan("List the patients given an ACE inhibitor.")).patientsListed())
                .as("lidocaine-prilocaine is no ACE inhibitor").containsExactly("10000001");
        assertThat(complete(plan("Who received a beta blocker?")).patientsListed()).containsExactly("10000002", "10000006");
        assertThat(complete(plan("Who is on an oral anticoagulant?")).patientsListed()).containsExactly("10000001", "10000006");
    }

    @Test
    void aBrandNameAsksForTheDrugUnderEitherName() {
        SetResult set = complete(plan("Who was prescribed Glucophage?"));
        assertThat(set.patientsListed()).containsExactly("10000004", "10000005");
        assertThat(String.join(" ", set.concepts())).contains("brand of metformin", "MetFORMIN (Glucophage)", "Metformin");
        assertThat(plan("Which patients received Amoxil or amoxicillin?"))
                .as("a brand the list does not hold is a word no drug holds: nothing is planned").isInstanceOf(SetDecision.NotASet.class);
    }

    @Test
    void aNegationLeavesOutEveryPatientWithTheOtherSetInsteadOfAskingForIt() {
        assertThat(complete(plan("Which patients with hypertension do not take lisinopril?")).patientsListed())
                .containsExactly("10000002", "10000003", "10000006");
        assertThat(complete(plan("Which patients with essential hypertension were never prescribed a beta blocker?"))
                .patientsListed()).containsExactly("10000001");
        assertThat(complete(plan("Type 2 diabetics who were not given metformin - who are they?")).patientsListed())
                .containsExactly("10000006");
        SetResult none = complete(plan("Which atrial fibrillation patients never received an oral anticoagulant?"));
        assertThat(none.patients()).isZero();
        assertThat(none.patientsListed()).isEmpty();
    }

    @Test
    void theValuesOfAFieldNamedByItsNameLabelOrTermsAreListedWithTheirCounts() {
        SetResult routes = complete(plan("How is amoxicillin administered?"));
        assertThat(routes.output()).isEqualTo(Output.VALUES);
        assertThat(routes.field()).isEqualTo("route");
        assertThat(routes.values()).containsExactly(new SetResult.Value("PO", 1, 1), new SetResult.Value("PO/NG", 2, 1));
        assertThat(values(complete(plan("What strengths of metoprolol tartrate were dispensed?")))).containsExactly("25 mg", "50 mg");
        assertThat(values(complete(plan("Which care units did patient 10000001 pass through?", "10000001"))))
                .containsExactly("Med/Surg", "Medical Intensive Care Unit (MICU)");
        assertThat(values(complete(plan("Which organisms grew in patient 10000001's cultures?", "10000001"))))
                .containsExactly("ESCHERICHIA COLI", "STAPH AUREUS COAG +");
        assertThat(values(complete(plan("What is the gender of patient 10000002?", "10000002")))).containsExactly("M");
        assertThat(values(complete(plan("How old is patient 10000004 (anchor age)?", "10000004")))).containsExactly("80");
    }

    @Test
    void aCountIsOfRowsOrOfPatientsAsTheQuestionSays() {
        SetResult orders = complete(plan("How many warfarin orders were written in total?"));
        assertThat(orders.output()).isEqualTo(Output.COUNT);
        assertThat(orders.rows()).isEqualTo(1);
        assertThat(answer(plan("How many warfarin orders were written in total?")).text()).contains("1 medication record ");
        SetResult patients = complete(plan("How many different patients have atrial fibrillation?"));
        assertThat(patients.patients()).isEqualTo(2);
        assertThat(answer(plan("How many different patients have atrial fibrillation?")).text()).contains("2 patients");
        assertThat(complete(plan("How many admissions does patient 10000001 have?", "10000001")).rows()).isEqualTo(2);
        assertThat(complete(plan("How many admissions started before 2130?")).rows()).isEqualTo(1);
        assertThat(complete(plan("How many patients had an organism grow in a urine culture?")).patients())
                .as("a field named with an article holds a value").isEqualTo(2);
        assertThat(complete(plan("Which patients got amoxicillin, in any strength?")).patients())
                .as("'any' asks for no value").isEqualTo(2);
    }

    @Test
    void theLatestAndEarliestAreReadByTheTablesTimeColumn() {
        SetResult creatinine = complete(plan("What was the most recent creatinine result for patient 10000001?", "10000001"));
        assertThat(creatinine.output()).isEqualTo(Output.LATEST);
        assertThat(creatinine.rowIds()).containsExactly("hosp:labevents:l2");
        SetResult first = complete(plan("When was patient 10000001 first admitted, and where were they admitted from?", "10000001"));
        assertThat(first.rowIds()).containsExactly("hosp:admissions:20000001");
        SetAnswer last = answer(plan("Where did patient 10000001 go after their last hospital stay?", "10000001"));
        assertThat(last.set().rowIds()).containsExactly("hosp:admissions:20000002");
        assertThat(last.text()).contains("discharge location: SKILLED NURSING FACILITY").contains("[1]");
        assertThat(last.passages()).hasSize(1);
    }

    @Test
    void theMostFrequentValuesAreRankedByPatientsWhenTheQuestionCountsPatients() {
        SetResult top = complete(plan("What is the most common diagnosis, by number of patients?"));
        assertThat(top.output()).isEqualTo(Output.TOP_VALUES);
        assertThat(top.values()).containsExactly(new SetResult.Value("Essential (primary) hypertension", 2, 2));
        SetResult type = complete(plan("Which admission type is the most frequent?"));
        assertThat(type.field()).isEqualTo("admission_type");
        assertThat(values(type)).containsExactly("EW EMER.");
    }

    @Test
    void aTimeWindowBoundsTheTablesTimeColumn() {
        assertThat(complete(plan("Which patients had warfarin orders starting after the start of 2170?")).patientsListed())
                .containsExactly("10000001");
        assertThat(complete(plan("Who had any procedure recorded between 2140 and 2149 inclusive?")).patientsListed())
                .containsExactly("10000006");
        SetResult since = complete(plan("List patient 10000001's admissions since 2155.", "10000001"));
        assertThat(since.rowIds()).containsExactly("hosp:admissions:20000002");
    }

    @Test
    void currentRowsAreThoseWithoutAnEnd() {
        assertThat(complete(plan("Which patients are still in hospital (an admission with no discharge time)?")).patientsListed())
                .containsExactly("10000004");
        assertThat(complete(plan("How many admissions are still open, i.e. not yet discharged?")).rows()).isEqualTo(1);
        assertThat(complete(plan("Which medications is patient 10000001 currently taking?", "10000001")).rowIds())
                .containsExactly("hosp:prescriptions:r2", "hosp:prescriptions:r3");
    }

    @Test
    void aPatientsOrAnAdmissionsFullListHoldsEveryRowAndItsDistinctValues() {
        SetResult admission = complete(plan("What were the diagnoses for admission 20000001?"));
        assertThat(admission.output()).isEqualTo(Output.ROWS);
        assertThat(admission.rowIds()).containsExactly("hosp:diagnoses_icd:d1", "hosp:diagnoses_icd:d2");
        assertThat(values(admission)).containsExactly("Atrial fibrillation", "Unspecified essential hypertension");
        SetResult patient = complete(plan("What diagnoses does patient 10000006 have?", "10000006"));
        assertThat(patient.rowIds()).hasSize(3);
        assertThat(values(complete(plan("List every drug ordered for 10000001.", "10000001"))))
                .containsExactly("Atorvastatin", "Lisinopril", "Warfarin");
    }

    @Test
    void anAdmissionNoIndexedEncounterHasIsRefusedNamingIt() {
        SetAnswer answer = answer(plan("Which diagnoses were coded on admission 12345678?"));
        assertThat(answer.isRefusal()).isTrue();
        assertThat(answer.refusal()).contains("admission 12345678");
    }

    @Test
    void aFollowUpOverASetReadsEachOfItsPatients() {
        SetAnswer answer = answer(sets.plan("What were they diagnosed with?", RetrievalFilter.NONE, List.of(),
                List.of("10000001", "10000002")));
        assertThat(answer.completeness().kind()).isEqualTo(Completeness.Kind.COMPLETE);
        assertThat(answer.set().patientsListed()).containsExactly("10000001", "10000002");
        assertThat(values(answer.set())).containsExactly("Atrial fibrillation", "Essential (primary) hypertension",
                "Unspecified essential hypertension");
        assertThat(answer.text()).contains("patient 10000002: Essential (primary) hypertension");
    }

    @Test
    void aPartThePlanCannotResolveIsNeverAnsweredAsIfItHadBeen() {
        SetDecision time = plan("Which patients were diagnosed with atrial fibrillation during an admission that began in 2150 or later?");
        assertThat(time).isInstanceOf(SetDecision.Refused.class);
        assertThat(((SetDecision.Refused) time).reason()).contains("2150 or later").contains("no time of their own");
        SetDecision count = plan("How many patients have high blood pressure?");
        assertThat(count).isInstanceOf(SetDecision.Refused.class);
        assertThat(((SetDecision.Refused) count).reason()).contains("high blood pressure");
        assertThat(plan("Which patients have essential hypertension and atrial fibrillation?"))
                .as("an intersection is not planned as a union").isNotInstanceOf(SetDecision.Planned.class);
        assertThat(plan("Which patients got vancomycin?")).as("a drug no record names: the cohort path decides")
                .isInstanceOf(SetDecision.NotASet.class);
        assertThat(plan("Which patients carry ICD-9 diagnosis code 42731?")).isInstanceOf(SetDecision.NotASet.class);
        assertThat(plan("What was patient 10000001's blood pressure on admission?", "10000001"))
                .isNotInstanceOf(SetDecision.Planned.class);
        assertThat(plan("How many pack-years did patient 10000001 smoke?", "10000001")).isInstanceOf(SetDecision.Refused.class);
    }

    @Test
    void anIndexWithoutRowSetsPlansNothing() {
        WholeSets none = WholeSets.of(new org.chartstream.retrieval.plan.RowSetIndex() {
            @Override
            public boolean answersRowSets() {
                return false;
            }
        }, Map.of(RowSetIndex.SOURCE, Hospital.binding()), 500, 600);
        assertThat(none.plan("Which patients are on a statin?", RetrievalFilter.NONE, List.of(), List.of()))
                .isInstanceOf(SetDecision.NotASet.class);
    }
}

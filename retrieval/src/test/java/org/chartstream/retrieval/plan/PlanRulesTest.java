package org.chartstream.retrieval.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.chartstream.core.store.rowset.FieldPredicate;
import org.chartstream.retrieval.SetResult.Output;
import org.chartstream.retrieval.scope.AdmissionMentions;
import org.chartstream.retrieval.scope.FollowUpCues;
import org.junit.jupiter.api.Test;

/** The rules a plan is built by, one at a time: drug classes, time phrases, admissions, frames, stems and set follow-ups. */
class PlanRulesTest {
    private static final DrugClasses CLASSES = DrugClasses.standard();

    private static DrugClasses.DrugClass named(String phrase) {
        return CLASSES.in(QuestionWords.of(phrase).words()).orElseThrow().drugClass();
    }

    @Test
    void aDrugClassCountsItsStemsAndNamesButNoWordThatMerelyEndsAlike() {
        assertThat(named("statins").includes("Atorvastatin")).isTrue();
        assertThat(named("statin").includes("Nystatin Oral Suspension")).isFalse();
        assertThat(named("ace inhibitor").includes("lisinopril 10 MG Oral Tablet")).isTrue();
        assertThat(named("ACE inhibitors").includes("Lidocaine-Prilocaine")).isFalse();
        assertThat(named("beta-blocker").includes("Metoprolol Tartrate")).isTrue();
        assertThat(named("proton pump inhibitor").includes("Nexium")).isTrue();
        assertThat(named("an angiotensin receptor blocker").includes("Valsartan")).isTrue();
        assertThat(named("oral anticoagulant").includes("Heparin")).as("heparin is not taken by mouth").isFalse();
        assertThat(named("anticoagulants").includes("Heparin")).isTrue();
        assertThat(CLASSES.in(QuestionWords.of("never received an oral anticoagulant").words()).orElseThrow().drugClass().name())
                .as("the longest phrase names the class").isEqualTo("oral anticoagulant");
        assertThat(CLASSES.in(QuestionWords.of("essential hypertension").words())).isEmpty();
    }

    @Test
    void aClassOrBrandFileLineThatDoesNotParseIsAnErrorNamingTheLine() {
        assertThatThrownBy(() -> DrugClasses.parse(List.of("# comment", "statin -vastatin")))
                .hasMessageContaining("line 2");
        assertThatThrownBy(() -> DrugBrands.parse(List.of("glucophage metformin"))).hasMessageContaining("line 1");
    }

    @Test
    void aBrandIsItsGenericAndNothingElse() {
        assertThat(DrugBrands.standard().generic(List.of("glucophage"))).contains(List.of("metformin"));
        assertThat(DrugBrands.standard().generic(List.of("metformin"))).isEmpty();
    }

    private static TimeWindow window(String question) {
        return TimeWindow.in(QuestionWords.of(question)).orElseThrow();
    }

    @Test
    void timePhrasesBecomeRangesOnTheTimeText() {
        assertThat(window("diagnosed with prediabetes after 2020").predicate("t"))
                .isEqualTo(new FieldPredicate.InRange("t", "2020", false, null, false));
        assertThat(window("orders starting after the start of 2170").predicate("t"))
                .isEqualTo(new FieldPredicate.InRange("t", "2170", true, null, false));
        assertThat(window("admissions since 2149").predicate("t")).isEqualTo(FieldPredicate.InRange.since("t", "2149"));
        assertThat(window("started before 2130").predicate("t")).isEqualTo(FieldPredicate.InRange.before("t", "2130"));
        assertThat(window("between 2140 and 2149 inclusive").predicate("t"))
                .isEqualTo(new FieldPredicate.InRange("t", "2140", true, "2149", true));
        assertThat(window("an admission that began in 2150 or later").predicate("t"))
                .isEqualTo(new FieldPredicate.InRange("t", "2150", true, null, false));
        assertThat(window("in 2020").predicate("t")).isEqualTo(new FieldPredicate.InRange("t", "2020", true, "2020", true));
        assertThat(window("since 2021-06-01").from()).isEqualTo("2021-06-01");
        QuestionWords words = QuestionWords.of("Which patients had warfarin since 2149?");
        TimeWindow.in(words);
        assertThat(words.phrases()).extracting(QuestionWords.Phrase::text).contains("which patients had warfarin");
        assertThat(TimeWindow.in(QuestionWords.of("Which patients take lisinopril?"))).isEmpty();
    }

    @Test
    void anAdmissionIsNamedByItsNumberAfterAnAdmissionWordOrItsNumberColumnsName() {
        assertThat(AdmissionMentions.in("What were the diagnoses for admission 24597018?"))
                .extracting(AdmissionMentions.Mention::number).containsExactly("24597018");
        assertThat(AdmissionMentions.in("List the discharge diagnoses of hadm 24104168.")).isEmpty();
        assertThat(AdmissionMentions.in("List the discharge diagnoses of hadm 24104168.", List.of("hadm_id"))).hasSize(1);
        assertThat(AdmissionMentions.in("Diagnoses of hadm_id 24104168 and of hadm id 24104169?", List.of("hadm_id")))
                .extracting(AdmissionMentions.Mention::number).containsExactly("24104168", "24104169");
        assertThat(AdmissionMentions.in("Diagnoses of visit_no 2410?", List.of("visit_no"))).hasSize(1);
        assertThat(AdmissionMentions.in("Which diagnoses were coded on hospital stay 21390688?")).hasSize(1);
        assertThat(AdmissionMentions.in("Diagnoses on encounter 20437651?")).hasSize(1);
        assertThat(AdmissionMentions.in("a stay of 3 days")).isEmpty();
        assertThat(AdmissionMentions.in("What medications was patient 10019917 prescribed?")).isEmpty();
    }

    private static SetFrame frame(String question) {
        return SetFrame.read(QuestionWords.of(question));
    }

    @Test
    void theFrameSaysWhatIsAskedFor() {
        assertThat(frame("How many patients in the database are female?").countPatients()).isTrue();
        assertThat(frame("How many warfarin orders were written in total?").countPatients()).isFalse();
        assertThat(frame("What are the five most common diagnoses, by number of patients?").output()).isEqualTo(Output.TOP_VALUES);
        assertThat(frame("What are the five most common diagnoses, by number of patients?").topN()).isEqualTo(5);
        assertThat(frame("Which two procedures were performed on the most patients?").topN()).isEqualTo(2);
        assertThat(frame("Which admission type is the most frequent?").topN()).isEqualTo(1);
        assertThat(frame("What was the most recent creatinine result?").output()).isEqualTo(Output.LATEST);
        assertThat(frame("When was the patient first admitted?").output()).isEqualTo(Output.EARLIEST);
        assertThat(frame("Who was prescribed Glucophage?").output()).isEqualTo(Output.PATIENTS);
        assertThat(frame("Heart failure patients without any loop diuretic: which ones?").output()).isEqualTo(Output.PATIENTS);
        assertThat(frame("What diagnoses does patient 10019568 have?").output()).isNull();
        assertThat(frame("How many admissions are still open, i.e. not yet discharged?").current()).isTrue();
        QuestionWords notYet = QuestionWords.of("not yet discharged");
        SetFrame.read(notYet);
        assertThat(notYet.marked(QuestionWords.Role.NEGATION)).as("'not yet' asks for current rows").isEmpty();
        QuestionWords negated = QuestionWords.of("Which patients don't take lisinopril?");
        SetFrame.read(negated);
        assertThat(negated.phrases()).singleElement().satisfies(p -> assertThat(p.negated()).isTrue());
    }

    @Test
    void aWordOfTheSameStemIsTheSameWordButAShortPrefixIsNot() {
        assertThat(ConceptLinker.sameWord("hypothyroid", "hypothyroidism")).isTrue();
        assertThat(ConceptLinker.sameWord("diabetics", "diabetes")).isTrue();
        assertThat(ConceptLinker.sameWord("intubated", "intubation")).isTrue();
        assertThat(ConceptLinker.sameWord("stents", "stent")).isTrue();
        assertThat(ConceptLinker.sameWord("coronary", "coronavirus")).isFalse();
        assertThat(ConceptLinker.sameWord("statin", "atorvastatin")).isFalse();
        assertThat(ConceptLinker.sameWord("2", "20")).isFalse();
    }

    @Test
    void aFollowUpAboutSeveralPatientsRefersBackToTheSet() {
        assertThat(FollowUpCues.refersBackToSet("What were they diagnosed with?")).isTrue();
        assertThat(FollowUpCues.refersBackToSet("And what drugs were they given?")).isTrue();
        assertThat(FollowUpCues.refersBackToSet("What procedures did those patients have?")).isTrue();
        assertThat(FollowUpCues.refersBackToSet("and their medications?")).isTrue();
        assertThat(FollowUpCues.refersBackToSet("Which patients take lisinopril?")).isFalse();
        assertThat(FollowUpCues.refersBackToSet("What does she take?")).isFalse();
        assertThat(FollowUpCues.refersBackToSet("Which of them are on a statin?")).isTrue();
        assertThat(FollowUpCues.refersBackToSet("Which patients have their blood pressure recorded?")).as("a new set").isFalse();
    }
}

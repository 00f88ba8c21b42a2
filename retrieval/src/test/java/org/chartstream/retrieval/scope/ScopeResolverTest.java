package org.chartstream.retrieval.scope;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.retrieval.PatientScope;
import org.chartstream.retrieval.PatientScope.PatientCandidate;
import org.chartstream.retrieval.PatientScope.Source;
import org.chartstream.retrieval.rewrite.ConversationHistory;
import org.chartstream.retrieval.rewrite.RecentTurn;
import org.junit.jupiter.api.Test;

class ScopeResolverTest {
    static final PatientCandidate ROSS = new PatientCandidate("MRN-000007", "Elizabeth Ross", "MRN-000007", 1961);
    static final PatientCandidate JACKSON = new PatientCandidate("MRN-000012", "Sophia Jackson", "MRN-000012", 1980);
    static final PatientCandidate BROWN = new PatientCandidate("MRN-000031", "Sophia Brown", "MRN-000031", 1975);
    static final PatientCandidate PERRY = new PatientCandidate("MRN-000003", "John Perry", "MRN-000003", 1963);
    /** A patient of a patient table without name columns. */
    static final PatientCandidate NUMBERED = new PatientCandidate("10014078", null, "10014078", null);
    static final List<PatientCandidate> ALL = List.of(ROSS, JACKSON, BROWN, PERRY, NUMBERED);

    /** Answers as the index adapter does: every patient sharing a folded word with the text. */
    static final class Directory implements PatientDirectory {
        final List<String> asked = new ArrayList<>();

        @Override
        public List<PatientCandidate> mentionedIn(String text) {
            asked.add(text);
            List<String> words = Words.folded(text);
            return ALL.stream().filter(c -> words.contains(Words.fold(c.patientNumber()))
                    || (c.name() != null && Words.folded(c.name()).stream().anyMatch(words::contains))).toList();
        }
    }

    private final Directory directory = new Directory();
    private final ScopeResolver resolver = new ScopeResolver(directory);

    private ScopeDecision first(String question) {
        return resolver.resolve(question, RetrievalFilter.NONE, ConversationHistory.EMPTY);
    }

    private ScopeDecision after(String question, String... previousPatients) {
        ConversationHistory history = new ConversationHistory("", List.of(new RecentTurn("earlier question", "earlier answer",
                List.of(previousPatients))));
        return resolver.resolve(question, RetrievalFilter.NONE, history);
    }

    @Test
    void aFullNameRestrictsTheRunToThatPatient() {
        ScopeDecision d = first("What conditions does Elizabeth Ross have?");

        assertThat(d.scope()).isEqualTo(new PatientScope(Source.NAMED, "MRN-000007", List.of()));
        assertThat(d.filter().patient()).isEqualTo("MRN-000007");
        assertThat(d.clarify()).isFalse();
    }

    @Test
    void accentsAndCaseAreFoldedOnTheQuestionsSide() {
        assertThat(first("What brought Elizabéth Róss to the clinic?").filter().patient()).isEqualTo("MRN-000007");
        assertThat(first("what conditions does elizabeth ross have?").filter().patient()).isEqualTo("MRN-000007");
    }

    @Test
    void aPatientNumberNamesOnePatient() {
        ScopeDecision d = first("Which medications is mrn-000031 taking?");

        assertThat(d.scope().source()).isEqualTo(Source.NAMED);
        assertThat(d.filter().patient()).isEqualTo("MRN-000031");
    }

    @Test
    void aFullNameWinsOverAnotherPatientSharingItsFirstName() {
        assertThat(first("What medications does Sophia Brown take?").filter().patient()).isEqualTo("MRN-000031");
    }

    @Test
    void aNameTwoPatientsShareAsksWhichListingNameNumberAndBirthYear() {
        ScopeDecision d = first("What medications does Sophia take?");

        assertThat(d.clarify()).isTrue();
        assertThat(d.scope().source()).isEqualTo(Source.AMBIGUOUS);
        assertThat(d.scope().candidates()).containsExactly(BROWN, JACKSON);
        assertThat(d.clarification()).startsWith("Which patient do you mean?")
                .contains("Sophia Brown (MRN-000031, born 1975)", "Sophia Jackson (MRN-000012, born 1980)");
        assertThat(d.filter().patient()).isNull();
    }

    @Test
    void aSingleNameOnlyOnePatientHasNamesThatPatient() {
        assertThat(first("What is Perry allergic to?").filter().patient()).isEqualTo("MRN-000003");
    }

    @Test
    void aFirstNameFollowedByAnotherSurnameIsSomeoneElse() {
        ScopeDecision d = first("What medications is Sophia Miller taking?");

        assertThat(d.scope()).isEqualTo(PatientScope.NONE);
        assertThat(d.filter()).isEqualTo(RetrievalFilter.NONE);
    }

    @Test
    void aLowerCaseWordThatIsAlsoANameIsNotAName() {
        assertThat(first("Does the brown patch on the skin need a biopsy?").scope()).isEqualTo(PatientScope.NONE);
    }

    @Test
    void aQuestionNamingTwoDifferentPatientsIsNotRestricted() {
        assertThat(first("Compare Elizabeth Ross and John Perry").scope()).isEqualTo(PatientScope.NONE);
    }

    @Test
    void aPronounInheritsThePreviousTurnsOnePatient() {
        ScopeDecision d = after("What about her medications?", "MRN-000007");

        assertThat(d.scope()).isEqualTo(new PatientScope(Source.INHERITED, "MRN-000007", List.of()));
        assertThat(d.filter().patient()).isEqualTo("MRN-000007");
        assertThat(d.scope().describe()).isEqualTo("inherited: patient MRN-000007");
    }

    @Test
    void everyKindOfReferenceInherits() {
        for (String q : List.of("Which medications is she taking?", "When was he born?", "What are his diagnoses?",
                "Has anything been prescribed to him?", "What are their allergies?", "And the medications?",
                "What about the conditions?", "How about allergies?", "Which medications is the patient taking?",
                "Who is her doctor?")) {
            assertThat(after(q, "MRN-000003").filter().patient()).as(q).isEqualTo("MRN-000003");
        }
    }

    @Test
    void aFollowUpNamingItsOwnPatientDoesNotInherit() {
        assertThat(after("And what about John Perry?", "MRN-000007").scope())
                .isEqualTo(new PatientScope(Source.NAMED, "MRN-000003", List.of()));
    }

    @Test
    void aFollowUpAfterATurnAboutSeveralPatientsAsksWhichListingThem() {
        ScopeDecision d = after("What about her medications?", "MRN-000031", "MRN-000007");

        assertThat(d.clarify()).isTrue();
        assertThat(d.scope().candidates()).containsExactly(ROSS, BROWN);
        assertThat(d.clarification()).contains("previous answer was about 2 patients", "Elizabeth Ross (MRN-000007, born 1961)");
    }

    @Test
    void aFollowUpAfterATurnAboutNoPatientAsksWhich() {
        ScopeDecision d = after("What about her medications?");

        assertThat(d.clarify()).isTrue();
        assertThat(d.scope().candidates()).isEmpty();
        assertThat(d.clarification()).startsWith("Which patient do you mean?");
    }

    @Test
    void aPronounOnAFirstTurnIsSearchedAsAsked() {
        assertThat(first("Which medications is she taking?").scope()).isEqualTo(PatientScope.NONE);
        assertThat(first("My mother has lupus; what should her diet be?").clarify()).isFalse();
    }

    @Test
    void weakReferencesOnAFirstTurnAreOrdinaryWords() {
        assertThat(first("Which patient has SNOMED CT code 44054006 on their problem list?").scope()).isEqualTo(PatientScope.NONE);
        assertThat(first("And the opening hours of the gift shop?").scope()).isEqualTo(PatientScope.NONE);
    }

    @Test
    void cohortQuestionsInAConversationAreNotFollowUps() {
        assertThat(after("Which patients take lisinopril?", "MRN-000007").scope()).isEqualTo(PatientScope.NONE);
        assertThat(after("Who else has their blood pressure controlled?", "MRN-000007").scope()).isEqualTo(PatientScope.NONE);
        assertThat(after("Does anyone else take her medication?", "MRN-000007").scope()).isEqualTo(PatientScope.NONE);
    }

    @Test
    void theRequestsOwnPatientFilterStandsAndNoDirectoryIsAsked() {
        ScopeDecision d = resolver.resolve("What about Sophia?", RetrievalFilter.forPatient("MRN-000012").withTables(List.of("medications")),
                ConversationHistory.EMPTY);

        assertThat(d.scope()).isEqualTo(new PatientScope(Source.REQUEST, "MRN-000012", List.of()));
        assertThat(d.filter().tables()).containsExactly("medications");
        assertThat(directory.asked).isEmpty();
    }

    @Test
    void theRequestsOtherRestrictionsAreKeptUnderAResolvedPatient() {
        ScopeDecision d = resolver.resolve("What about her medications?", RetrievalFilter.forTables("medications"),
                new ConversationHistory("", List.of(new RecentTurn("q", "a", List.of("MRN-000007")))));

        assertThat(d.filter()).isEqualTo(RetrievalFilter.forTables("medications").withPatient("MRN-000007"));
    }

    @Test
    void aQuestionAboutNobodyIsNotRestricted() {
        assertThat(first("Which patient has a condition with ICD-10 code E11.9?").scope()).isEqualTo(PatientScope.NONE);
        assertThat(after("Which patient has a condition with ICD-10 code E11.9?", "MRN-000007").scope()).isEqualTo(PatientScope.NONE);
    }

    @Test
    void aPatientKnownByNumberAloneIsNamedByItsNumberWhicheverWordsPrecedeIt() {
        for (String question : List.of("What is the gender of patient 10014078?", "pt 10014078 gender?", "Gender of #10014078?",
                "Which drugs did subject 10014078 receive?", "What is the gender of patient no. 10014078?",
                "List every drug ordered for 10014078.", "What about patient 10014078's labs?")) {
            ScopeDecision d = first(question);

            assertThat(d.scope()).as(question).isEqualTo(new PatientScope(Source.NAMED, "10014078", List.of()));
            assertThat(d.filter().patient()).as(question).isEqualTo("10014078");
            assertThat(d.patientNumbers()).as(question).containsExactly("10014078");
        }
    }

    @Test
    void aPatientNumberNoIndexedPatientHasIsRefusedNamingIt() {
        ScopeDecision d = first("What medications was patient 10099999 prescribed?");

        assertThat(d.refused()).isTrue();
        assertThat(d.scope().source()).isEqualTo(Source.UNKNOWN);
        assertThat(d.filter().patient()).isNull();
        assertThat(d.clarification()).isEqualTo("the question names patient 10099999, but no indexed patient has that number");
        assertThat(first("Does patient no. MRN-000099 or Elizabeth Ross take lisinopril?").clarification())
                .as("a full name does not stand in for a number that resolved to nobody").contains("patient MRN-000099");
        assertThat(first("Compare patient 10099999 with patient 10088888").clarification())
                .isEqualTo("the question names patients 10099999, 10088888, but no indexed patient has those numbers");
    }

    @Test
    void anAgeOrAWordAfterPatientIsNoPatientNumber() {
        assertThat(first("Is the patient 65 or older?").scope()).isEqualTo(PatientScope.NONE);
        assertThat(first("Which patients 75 or older take lisinopril?").scope()).isEqualTo(PatientScope.NONE);
        assertThat(first("Does the patient no longer take lisinopril?").refused()).isFalse();
    }

    @Test
    void aCorpusWithoutAPatientTableLeavesNumbersToTheGate() {
        ScopeDecision d = new ScopeResolver(PatientDirectory.NONE).resolve("What is the gender of patient 10099999?",
                RetrievalFilter.NONE, ConversationHistory.EMPTY);

        assertThat(d.scope()).isEqualTo(PatientScope.NONE);
    }

    @Test
    void theRequestsPatientWrittenInTheQuestionIsItsNumber() {
        ScopeDecision d = resolver.resolve("What is the gender of 10014078?", RetrievalFilter.forPatient("10014078"),
                ConversationHistory.EMPTY);

        assertThat(d.scope().source()).isEqualTo(Source.REQUEST);
        assertThat(d.patientNumbers()).containsExactly("10014078");
    }

    @Test
    void aClarificationNamesAPatientKnownByNumberAloneByThatNumber() {
        ScopeDecision d = after("What about her labs?", "MRN-000007", "10014078");

        assertThat(d.clarification()).contains("Elizabeth Ross (MRN-000007, born 1961); patient 10014078");
    }
}

package org.chartstream.evaluation;

import static org.chartstream.evaluation.ClinicalRowMatch.lower;
import static org.chartstream.evaluation.ClinicalRowMatch.mentionedAnywhere;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.chartstream.datasets.ClinicalDataset;
import org.chartstream.datasets.ConditionRow;

/**
 * The clinical set's unanswerable questions (no judgments): each names something the data does not hold, checked
 * against the data (a person who is not a patient, a drug nobody takes or mentions, an ICD-10 code nobody has), or asks
 * about something outside health records.
 */
final class UnanswerableQuestions {
    static final List<String> UNUSED_FIRST_NAMES = List.of("Thaddeus", "Philippa", "Evander", "Marguerite", "Leopold",
            "Ottoline", "Barnaby", "Clementine", "Ignatius", "Wilhelmina", "Cornelius", "Perpetua", "Lysander", "Araminta");
    static final List<String> UNUSED_LAST_NAMES = List.of("Fairweather", "Quenby", "Ashdown", "Trevelyan", "Vossberg",
            "Kittredge", "Ravensworth", "Pemberton-Lowe", "Haldane", "Oakenshaw", "Blenkinsop", "Marchbanks", "Wetherell", "Drummond-Hay");
    static final List<String> CANDIDATE_ABSENT_DRUGS = List.of("zolmitriptan", "adalimumab", "natalizumab", "dabigatran",
            "ivermectin", "clozapine", "mefloquine", "riluzole", "tafamidis", "eculizumab", "pyridostigmine", "dupilumab",
            "ocrelizumab", "sumatriptan", "lithium carbonate", "varenicline");
    static final List<String> CANDIDATE_ABSENT_ICD10 = List.of("G35", "C91.00", "B20", "G12.21", "E84.0", "D66", "Q90.9",
            "G10", "A15.0", "E75.22", "C43.9", "G71.01");
    static final List<String> OUTSIDE_THE_RECORDS = List.of(
            "What are the opening hours of the hospital gift shop on public holidays?",
            "How much does parking cost in the visitor garage?",
            "What is the Wi-Fi password for the waiting room?",
            "Who is the chief executive officer of the hospital?",
            "What is on the cafeteria menu this Friday?",
            "When are visiting hours on the maternity ward?",
            "Which bus line stops closest to the main entrance?",
            "How do I appeal a denied insurance claim for my dental crown?",
            "What will the weather be like tomorrow afternoon?",
            "Where can I buy a used wheelchair at a good price?",
            "How many beds does the intensive care unit have?",
            "What is the fax number of the billing department?");

    private UnanswerableQuestions() {
    }

    static void absentPatients(ClinicalDataset data, ClinicalQuestionGenerator.Builder b) {
        Set<String> lastNames = data.patients().stream().map(p -> lower(p.lastName())).collect(Collectors.toSet());
        Set<String> firstNames = data.patients().stream().map(p -> lower(p.firstName())).collect(Collectors.toSet());
        String[] templates = {"What medications is %s taking?", "When was %s last seen in the clinic?", "What is the diagnosis of %s?"};
        for (int i = 0; i < UNUSED_FIRST_NAMES.size(); i++) {
            String first = UNUSED_FIRST_NAMES.get(i);
            String last = UNUSED_LAST_NAMES.get(i);
            if (firstNames.contains(lower(first)) || lastNames.contains(lower(last)) || mentionedAnywhere(data, lower(last))) {
                continue;
            }
            b.add("absent patient", String.format(templates[i % templates.length], first + " " + last), null, Set.of());
        }
    }

    static void absentDrugs(ClinicalDataset data, ClinicalQuestionGenerator.Builder b) {
        String[] templates = {"Which patient has been prescribed %s?", "Who takes %s twice a day?"};
        int i = 0;
        for (String drug : CANDIDATE_ABSENT_DRUGS) {
            if (mentionedAnywhere(data, drug)) {
                continue;
            }
            b.add("absent drug", String.format(templates[i % templates.length], drug), null, Set.of());
            i++;
        }
    }

    static void absentCodes(ClinicalDataset data, ClinicalQuestionGenerator.Builder b) {
        Set<String> present = data.conditions().stream().map(ConditionRow::icd10Code).filter(c -> c != null)
                .collect(Collectors.toSet());
        for (String code : CANDIDATE_ABSENT_ICD10) {
            if (!present.contains(code) && !mentionedAnywhere(data, lower(code))) {
                b.add("absent code", "Which patient has a condition with ICD-10 code " + code + "?", null, Set.of());
            }
        }
    }
}

package org.chartstream.evaluation;

import static org.chartstream.evaluation.ClinicalRowMatch.containsWord;
import static org.chartstream.evaluation.ClinicalRowMatch.drugName;
import static org.chartstream.evaluation.ClinicalRowMatch.drugRows;
import static org.chartstream.evaluation.ClinicalRowMatch.drugsByPatients;
import static org.chartstream.evaluation.ClinicalRowMatch.groupRows;
import static org.chartstream.evaluation.ClinicalRowMatch.lower;
import static org.chartstream.evaluation.ClinicalRowMatch.mentionedAnywhere;
import static org.chartstream.evaluation.ClinicalRowMatch.rarestFirst;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.chartstream.datasets.ClinicalDataset;
import org.chartstream.datasets.ConditionRow;
import org.chartstream.datasets.MedicationRow;
import org.chartstream.datasets.PatientRow;

/**
 * Generates the clinical question set from a synthetic dataset, deterministically (the same dataset gives the same
 * questions in the same order). Answerable questions carry every row that answers them ({@code table:row_key},
 * grade 1), found by exact matching on the generated rows:
 * <ul>
 *   <li><b>icd10 code</b>, <b>snomed code</b>: the condition rows with that code;</li>
 *   <li><b>rxnorm code</b>, <b>drug name</b>: the medication rows with that code, or whose description names the
 *       drug;</li>
 *   <li><b>paraphrased condition</b>: a condition named in lay words; the condition rows whose description holds the
 *       clinical term and the notes that mention it;</li>
 *   <li><b>complaint</b>: a note's chief complaint, in lay words where a paraphrase is known; the notes with that
 *       chief complaint;</li>
 *   <li><b>named patient</b>: a patient named in full; the patient's row (birth date, residence) or the patient's
 *       notes (what brought them in);</li>
 *   <li><b>follow-up</b>: a second turn ("which medications is she taking?") that needs the first turn, which names
 *       the patient; the patient's medication rows.</li>
 *   <li><b>cohort</b>: every patient with one exact anchor ("Which patients take lisinopril?", "Which patients have a
 *       condition with ICD-10 code E11.9?"); the complete answer set: every medication row that names the drug as a
 *       word, or every condition row with the code (scored by cohort recall and precision over patients too);</li>
 *   <li><b>misspelled drug</b>: a drug name one or two edits off ("lisinoprl"), checked to appear nowhere in the data;
 *       the medication rows of the drug meant.</li>
 *   <li>follow-ups of every other kind of reference, names several patients share and accented names:
 *       {@link ConversationQuestions}.</li>
 * </ul>
 * Unanswerable questions (no judgments) name things the data does not hold, each checked against the data: a person
 * who is not a patient, a drug nobody takes or mentions, an ICD-10 code nobody has, or something outside health
 * records.
 */
public final class ClinicalQuestionGenerator {
    static final int MAX_PER_CODE_KIND = 25;
    static final int MAX_DRUGS = 25;
    static final int MAX_NAMED_PATIENTS = 25;
    static final int MAX_FOLLOW_UPS = 20;
    static final int MAX_COHORTS_PER_ANCHOR_KIND = 10;
    static final int MAX_MISSPELLED_DRUGS = 10;

    /** Lay wording keyed by the clinical term in Synthea's condition descriptions. */
    static final Map<String, String> CONDITION_PARAPHRASES = orderedMap(
            "hypertension", "high blood pressure",
            "hyperlipidemia", "too much fat and cholesterol in the blood",
            "prediabetes", "blood sugar higher than normal but not yet diabetes",
            "diabetes", "a condition where the body cannot control blood sugar",
            "anemia", "a low red blood cell count",
            "obesity", "a body weight far above the healthy range",
            "sinusitis", "inflamed sinuses",
            "osteoarthritis", "wear-and-tear joint disease",
            "bronchitis", "an inflamed chest airway infection",
            "pharyngitis", "a sore throat infection",
            "otitis media", "a middle ear infection",
            "asthma", "wheezing and tight airways that come and go",
            "gingivitis", "inflamed gums",
            "concussion", "a brain injury from a blow to the head",
            "sprain", "a stretched or torn ligament",
            "fracture", "a broken bone",
            "laceration", "a cut in the skin",
            "migraine", "severe recurring headaches",
            "depression", "a persistently low mood",
            "anxiety", "constant worry and nervousness",
            "chronic kidney disease", "kidneys that have been failing slowly",
            "ischemic heart disease", "narrowed arteries that starve the heart of blood",
            "atrial fibrillation", "an irregular heartbeat",
            "gout", "painful uric acid crystals in the joints",
            "dermatitis", "an itchy inflamed skin rash",
            "allergic rhinitis", "hay fever",
            "urinary tract infection", "a bladder infection",
            "neuropathy", "nerve damage causing numbness",
            "sleep apnea", "breathing that stops during sleep",
            "hypothyroidism", "an underactive thyroid");

    /** Lay wording for words of chief complaints. */
    static final Map<String, String> COMPLAINT_PARAPHRASES = orderedMap(
            "pain", "ache",
            "shortness of breath", "trouble breathing",
            "follow-up", "check-up",
            "follow up", "check-up",
            "injury", "hurt",
            "rash", "skin eruption",
            "fatigue", "tiredness",
            "cough", "hacking",
            "headache", "head pain",
            "swelling", "puffiness",
            "numbness", "loss of feeling",
            "dizziness", "light-headedness");

    private ClinicalQuestionGenerator() {
    }

    public static ClinicalQuestionSet generate(ClinicalDataset data) {
        Builder b = new Builder();
        icd10Codes(data, b);
        snomedCodes(data, b);
        rxnormCodes(data, b);
        drugNames(data, b);
        paraphrasedConditions(data, b);
        complaints(data, b);
        namedPatients(data, b);
        followUps(data, b);
        UnanswerableQuestions.absentPatients(data, b);
        UnanswerableQuestions.absentDrugs(data, b);
        UnanswerableQuestions.absentCodes(data, b);
        UnanswerableQuestions.OUTSIDE_THE_RECORDS.forEach(text -> b.add("outside the records", text, null, Set.of()));
        cohorts(data, b);
        misspelledDrugs(data, b);
        ConversationQuestions.of(data).forEach(d -> b.add(d.kind(), d.text(), d.previous(), d.rows()));
        return new ClinicalQuestionSet(data, b.questions);
    }

    private static void icd10Codes(ClinicalDataset data, Builder b) {
        String[] templates = {"Which patient has a condition with ICD-10 code %s?", "Who is diagnosed with ICD-10 %s?",
                "Find the diagnosis coded %s in ICD-10."};
        int i = 0;
        for (Map.Entry<String, Set<String>> code : rarestFirst(groupRows(data.conditions(), ConditionRow::icd10Code,
                c -> "conditions:" + c.conditionId())).entrySet()) {
            if (i >= MAX_PER_CODE_KIND) {
                break;
            }
            b.add("icd10 code", String.format(templates[i % templates.length], code.getKey()), null, code.getValue());
            i++;
        }
    }

    private static void snomedCodes(ClinicalDataset data, Builder b) {
        String[] templates = {"Which patient has SNOMED CT code %s on their problem list?", "Who has a diagnosis with SNOMED code %s?"};
        int i = 0;
        for (Map.Entry<String, Set<String>> code : rarestFirst(groupRows(data.conditions(), ConditionRow::snomedCode,
                c -> "conditions:" + c.conditionId())).entrySet()) {
            if (i >= MAX_PER_CODE_KIND) {
                break;
            }
            b.add("snomed code", String.format(templates[i % templates.length], code.getKey()), null, code.getValue());
            i++;
        }
    }

    private static void rxnormCodes(ClinicalDataset data, Builder b) {
        String[] templates = {"Who was prescribed the medication with RxNorm code %s?", "Which prescription has RxNorm code %s?"};
        int i = 0;
        for (Map.Entry<String, Set<String>> code : rarestFirst(groupRows(data.medications(), MedicationRow::rxnormCode,
                m -> "medications:" + m.medicationId())).entrySet()) {
            if (i >= MAX_PER_CODE_KIND) {
                break;
            }
            b.add("rxnorm code", String.format(templates[i % templates.length], code.getKey()), null, code.getValue());
            i++;
        }
    }

    private static void drugNames(ClinicalDataset data, Builder b) {
        String[] templates = {"Who has been prescribed %s?", "Which patient takes %s?", "Is anyone on %s?"};
        Map<String, Set<String>> byDrug = groupRows(data.medications(), m -> drugName(m.description()),
                m -> "medications:" + m.medicationId());
        int i = 0;
        for (Map.Entry<String, Set<String>> drug : rarestFirst(byDrug).entrySet()) {
            if (i >= MAX_DRUGS) {
                break;
            }
            Set<String> rows = new TreeSet<>();
            for (MedicationRow m : data.medications()) {
                if (lower(m.description()).contains(drug.getKey())) {
                    rows.add("medications:" + m.medicationId());
                }
            }
            b.add("drug name", String.format(templates[i % templates.length], drug.getKey()), null, rows);
            i++;
        }
    }

    private static void paraphrasedConditions(ClinicalDataset data, Builder b) {
        String[] templates = {"Which patient is being treated for %s?", "Who has %s?", "Is there a patient with %s?"};
        int i = 0;
        for (Map.Entry<String, String> p : CONDITION_PARAPHRASES.entrySet()) {
            String term = p.getKey();
            Set<String> rows = new TreeSet<>();
            data.conditions().stream().filter(c -> containsWord(c.description(), term))
                    .forEach(c -> rows.add("conditions:" + c.conditionId()));
            if (rows.isEmpty()) {
                continue;
            }
            data.notes().stream().filter(n -> containsWord(n.chiefComplaint() + " " + n.secondaryComplaints(), term))
                    .forEach(n -> rows.add("clinical_notes:" + n.noteId()));
            b.add("paraphrased condition", String.format(templates[i % templates.length], p.getValue()), null, rows);
            i++;
        }
    }

    private static void complaints(ClinicalDataset data, Builder b) {
        String[] templates = {"Which patient came in with %s?", "Who was seen for %s?"};
        Map<String, Set<String>> byComplaint = groupRows(data.notes(), n -> n.chiefComplaint() == null ? null : lower(n.chiefComplaint()).strip(),
                n -> "clinical_notes:" + n.noteId());
        int i = 0;
        for (Map.Entry<String, Set<String>> complaint : byComplaint.entrySet()) {
            b.add("complaint", String.format(templates[i % templates.length], layComplaint(complaint.getKey())), null, complaint.getValue());
            i++;
        }
    }

    private static void namedPatients(ClinicalDataset data, Builder b) {
        int i = 0;
        for (PatientRow p : data.patientsWithNotes()) {
            if (i >= MAX_NAMED_PATIENTS) {
                break;
            }
            Set<String> notes = data.notesOf(p.patientId()).stream().map(n -> "clinical_notes:" + n.noteId())
                    .collect(Collectors.toCollection(TreeSet::new));
            if (i % 2 == 0) {
                b.add("named patient", "What brought " + p.fullName() + " to the clinic?", null, notes);
            } else {
                b.add("named patient", "When was " + p.fullName() + " born, and where does " + pronoun(p) + " live?", null,
                        Set.of("patients:" + p.patientId()));
            }
            i++;
        }
    }

    private static void followUps(ClinicalDataset data, Builder b) {
        int i = 0;
        List<PatientRow> withNotes = data.patientsWithNotes();
        for (int k = withNotes.size() - 1; k >= 0 && i < MAX_FOLLOW_UPS; k--) {
            PatientRow p = withNotes.get(k);
            Set<String> medications = data.medicationsOf(p.patientId()).stream().map(m -> "medications:" + m.medicationId())
                    .collect(Collectors.toCollection(TreeSet::new));
            if (medications.isEmpty()) {
                continue;
            }
            b.add("follow-up", "Which medications is " + pronoun(p) + " taking?",
                    "What was " + p.fullName() + " seen for at the last visit?", medications);
            i++;
        }
    }

    /**
     * Drug cohorts (the drugs taken by most patients first) and ICD-10 cohorts (of the codes of two or more rows,
     * most rows first, every second one: a spread of cohort sizes from the largest down), each with every row holding
     * its anchor: the complete answer set, not a top k.
     */
    private static void cohorts(ClinicalDataset data, Builder b) {
        drugsByPatients(data).stream().limit(MAX_COHORTS_PER_ANCHOR_KIND)
                .forEach(drug -> b.add("cohort", "Which patients take " + drug + "?", null, drugRows(data, drug)));
        Map<String, Set<String>> byCode = groupRows(data.conditions(), ConditionRow::icd10Code, c -> "conditions:" + c.conditionId());
        List<Map.Entry<String, Set<String>>> codes = byCode.entrySet().stream().filter(e -> e.getValue().size() >= 2)
                .sorted(Map.Entry.<String, Set<String>>comparingByValue(java.util.Comparator.comparingInt(Set::size)).reversed()
                        .thenComparing(Map.Entry.comparingByKey()))
                .toList();
        for (int i = 0; i < codes.size() && i / 2 < MAX_COHORTS_PER_ANCHOR_KIND; i += 2) {
            b.add("cohort", "Which patients have a condition with ICD-10 code " + codes.get(i).getKey() + "?", null,
                    codes.get(i).getValue());
        }
    }

    /** Drug names misspelt by one or two edits (a dropped, a doubled or two swapped letters) that appear nowhere in the data. */
    private static void misspelledDrugs(ClinicalDataset data, Builder b) {
        String[] templates = {"Which patients take %s?", "Who has been prescribed %s?"};
        int i = 0;
        for (String drug : drugsByPatients(data)) {
            if (i >= MAX_MISSPELLED_DRUGS) {
                break;
            }
            String misspelt = misspell(drug, i);
            if (mentionedAnywhere(data, misspelt)) {
                continue;
            }
            b.add("misspelled drug", String.format(templates[i % templates.length], misspelt), null, drugRows(data, drug));
            i++;
        }
    }

    /** The {@code n}th kind of typo: a letter dropped before the end, the last letter doubled, two middle letters swapped. */
    static String misspell(String word, int n) {
        int middle = word.length() / 2;
        return switch (n % 3) {
            case 0 -> word.substring(0, word.length() - 2) + word.charAt(word.length() - 1);
            case 1 -> word + word.charAt(word.length() - 1);
            default -> word.substring(0, middle - 1) + word.charAt(middle) + word.charAt(middle - 1) + word.substring(middle + 1);
        };
    }

    static String layComplaint(String complaint) {
        String lay = complaint;
        for (Map.Entry<String, String> p : COMPLAINT_PARAPHRASES.entrySet()) {
            lay = lay.replaceAll("\\b" + java.util.regex.Pattern.quote(p.getKey()) + "\\b", p.getValue());
        }
        return lay;
    }

    private static String pronoun(PatientRow p) {
        return "female".equals(p.gender()) ? "she" : "male".equals(p.gender()) ? "he" : "they";
    }

    private static Map<String, String> orderedMap(String... pairs) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put(pairs[i], pairs[i + 1]);
        }
        return java.util.Collections.unmodifiableMap(m);
    }

    /** The questions in the order they are added, numbered c001, c002, … */
    static final class Builder {
        final List<ClinicalQuestion> questions = new ArrayList<>();

        void add(String kind, String text, String previous, Set<String> rows) {
            Map<String, Integer> judgments = new TreeMap<>();
            rows.forEach(r -> judgments.put(r, 1));
            questions.add(new ClinicalQuestion(String.format("c%03d", questions.size() + 1), kind, text, previous, judgments));
        }
    }
}

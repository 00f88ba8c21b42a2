package org.chartstream.app.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.chartstream.datasets.ClinicalDataset;
import org.chartstream.datasets.ClinicalNoteRow;
import org.chartstream.datasets.ConditionRow;
import org.chartstream.datasets.MedicationRow;

/**
 * The demo's questions, derived from the generated data so they stay answerable whatever the seed: an exact code,
 * a drug name, a paraphrased condition, a patient named in full, one the records cannot answer, and a cohort (every
 * patient on the drug most patients take, with their count). Each carries the rows that answer it, so the demo can
 * show whether they were cited.
 */
public final class DemoQuestions {
    /**
     * One demo question: its kind, its text, what counts as answering it, and the rows ({@code table:row_key}) that
     * do (empty: the records cannot answer it, so a refusal is expected).
     *
     * @param cohortPatients for a cohort question, the patients its complete answer lists; {@code null} otherwise
     */
    public record Question(String kind, String text, String expectation, Set<String> answeringRows, Integer cohortPatients) {
        public Question(String kind, String text, String expectation, Set<String> answeringRows) {
            this(kind, text, expectation, answeringRows, null);
        }
    }

    /** Lay wording for conditions Synthea generates, keyed by a word of the condition's description. */
    private static final Map<String, String> PARAPHRASES = paraphrases();
    private static final Set<String> DOSE_WORDS = Set.of("hr", "extended", "release", "oral", "tablet", "capsule", "mg", "ml",
            "injection", "solution", "prefilled", "syringe", "topical", "cream", "chewable", "inhaler", "metered", "dose",
            "actuat", "delayed", "film", "coated", "suspension", "disintegrating", "powder", "for", "day", "pack", "product",
            "unt", "auto", "injector", "hydrochloride", "sodium", "potassium", "and", "the", "with");

    private DemoQuestions() {
    }

    private static Map<String, String> paraphrases() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("hypertension", "high blood pressure");
        m.put("hyperlipidemia", "too much fat and cholesterol in the blood");
        m.put("prediabetes", "blood sugar higher than normal but not yet diabetic");
        m.put("anemia", "a low red blood cell count");
        m.put("obesity", "a body weight far above the healthy range");
        m.put("sinusitis", "inflamed sinuses");
        m.put("osteoarthritis", "wear-and-tear joint disease");
        m.put("bronchitis", "an inflamed chest airway infection");
        m.put("pharyngitis", "a sore throat infection");
        return m;
    }

    public static List<Question> from(ClinicalDataset data) {
        List<Question> questions = new ArrayList<>();
        rarestIcd10(data.conditions()).ifPresent(code -> questions.add(new Question("exact code",
                "Which patients have a condition with ICD-10 code " + code + "?", "a condition coded " + code,
                keys("conditions", data.conditions().stream().filter(c -> code.equals(c.icd10Code())).toList(), ConditionRow::conditionId))));
        drug(data.medications()).ifPresent(drug -> questions.add(new Question("drug name",
                "Who has been prescribed " + drug + "?", "a prescription of " + drug,
                keys("medications", data.medications().stream().filter(m -> lower(m.description()).contains(drug)).toList(),
                        MedicationRow::medicationId))));
        paraphrased(data.conditions()).ifPresent(p -> {
            Set<String> rows = keys("conditions", data.conditions().stream().filter(c -> lower(c.description()).contains(p.getKey())).toList(),
                    ConditionRow::conditionId);
            rows.addAll(keys("clinical_notes", data.notes().stream()
                    .filter(n -> lower(n.noteText() + " " + n.secondaryComplaints()).contains(p.getKey())).toList(), ClinicalNoteRow::noteId));
            questions.add(new Question("paraphrased condition", "Which patients are being treated for " + p.getValue() + "?",
                    "a condition or note about " + p.getKey(), rows));
        });
        data.patientsWithNotes().stream().findFirst().ifPresent(p -> {
            Set<String> rows = new TreeSet<>(Set.of("patients:" + p.patientId()));
            rows.addAll(keys("encounters", data.encountersOf(p.patientId()), e -> e.encounterId()));
            rows.addAll(keys("conditions", data.conditionsOf(p.patientId()), ConditionRow::conditionId));
            rows.addAll(keys("medications", data.medicationsOf(p.patientId()), MedicationRow::medicationId));
            rows.addAll(keys("clinical_notes", data.notesOf(p.patientId()), ClinicalNoteRow::noteId));
            questions.add(new Question("patient named in full", "What brought " + p.fullName() + " to the clinic, and what was the plan?",
                    "records of " + p.fullName(), rows));
        });
        questions.add(new Question("not in the records",
                "What are the opening hours of the hospital gift shop on public holidays?", "a refusal", Set.of()));
        cohort(data.medications()).ifPresent(questions::add);
        return questions;
    }

    /** "Which patients take X?" for the drug most patients take: every prescription naming it, and their patient count. */
    static java.util.Optional<Question> cohort(List<MedicationRow> medications) {
        Map<String, Set<java.util.UUID>> patients = new java.util.TreeMap<>();
        for (MedicationRow m : medications) {
            drugWord(m.description()).ifPresent(drug -> patients.computeIfAbsent(drug, k -> new java.util.HashSet<>()).add(m.patientId()));
        }
        return patients.entrySet().stream()
                .max(Map.Entry.<String, Set<java.util.UUID>>comparingByValue(java.util.Comparator.comparingInt(Set::size))
                        .thenComparing(Map.Entry.comparingByKey(java.util.Comparator.reverseOrder())))
                .map(e -> {
                    java.util.regex.Pattern word = java.util.regex.Pattern.compile("\\b" + e.getKey() + "\\b");
                    List<MedicationRow> rows = medications.stream().filter(m -> word.matcher(lower(m.description())).find()).toList();
                    int count = (int) rows.stream().map(MedicationRow::patientId).distinct().count();
                    return new Question("cohort", "Which patients take " + e.getKey() + "?",
                            "all " + count + " patients on " + e.getKey() + ", marked complete",
                            keys("medications", rows, MedicationRow::medicationId), count);
                });
    }

    private static String lower(String s) {
        return s == null ? "" : s.toLowerCase(Locale.ROOT);
    }

    private static java.util.Optional<String> rarestIcd10(List<ConditionRow> conditions) {
        Map<String, Long> counts = conditions.stream().filter(c -> c.icd10Code() != null)
                .collect(Collectors.groupingBy(ConditionRow::icd10Code, java.util.TreeMap::new, Collectors.counting()));
        return counts.entrySet().stream().filter(e -> e.getValue() >= 2)
                .min(Map.Entry.<String, Long>comparingByValue().thenComparing(Map.Entry.comparingByKey()))
                .or(() -> counts.entrySet().stream().findFirst()).map(Map.Entry::getKey);
    }

    private static java.util.Optional<String> drug(List<MedicationRow> medications) {
        Map<String, Long> counts = new java.util.TreeMap<>();
        for (MedicationRow m : medications) {
            drugWord(m.description()).ifPresent(word -> counts.merge(word, 1L, Long::sum));
        }
        return counts.entrySet().stream().filter(e -> e.getValue() >= 2)
                .min(Map.Entry.<String, Long>comparingByValue().thenComparing(Map.Entry.comparingByKey()))
                .map(Map.Entry::getKey);
    }

    /** The first word of a description that names the drug: six or more letters, not a dose form or unit. */
    private static java.util.Optional<String> drugWord(String description) {
        for (String word : description.toLowerCase(Locale.ROOT).split("[^a-z]+")) {
            if (word.length() >= 6 && !DOSE_WORDS.contains(word)) {
                return java.util.Optional.of(word);
            }
        }
        return java.util.Optional.empty();
    }

    private static java.util.Optional<Map.Entry<String, String>> paraphrased(List<ConditionRow> conditions) {
        return PARAPHRASES.entrySet().stream()
                .filter(p -> conditions.stream().anyMatch(c -> c.description().toLowerCase(Locale.ROOT).contains(p.getKey())))
                .findFirst();
    }

    private static <T> Set<String> keys(String table, List<T> rows, Function<T, Object> key) {
        return rows.stream().map(r -> table + ":" + key.apply(r)).collect(Collectors.toCollection(TreeSet::new));
    }

}

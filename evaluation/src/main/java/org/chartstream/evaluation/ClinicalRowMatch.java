package org.chartstream.evaluation;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.chartstream.datasets.ClinicalDataset;
import org.chartstream.datasets.MedicationRow;

/**
 * Exact matching on the generated rows, by which {@link ClinicalQuestionGenerator} finds the rows that answer a
 * question and checks that what an unanswerable question names appears nowhere: words, drug names, rows grouped by a
 * code.
 */
final class ClinicalRowMatch {
    private ClinicalRowMatch() {
    }

    /** Drug names of two or more patients, most patients first, then by name. */
    static List<String> drugsByPatients(ClinicalDataset data) {
        Map<String, Set<java.util.UUID>> patients = new TreeMap<>();
        for (MedicationRow m : data.medications()) {
            String drug = drugName(m.description());
            if (drug != null) {
                patients.computeIfAbsent(drug, k -> new java.util.HashSet<>()).add(m.patientId());
            }
        }
        return patients.entrySet().stream().filter(e -> e.getValue().size() >= 2)
                .sorted(Map.Entry.<String, Set<java.util.UUID>>comparingByValue(java.util.Comparator.comparingInt(Set::size)).reversed()
                        .thenComparing(Map.Entry.comparingByKey()))
                .map(Map.Entry::getKey).toList();
    }

    /** Every medication row whose description names the drug as a word. */
    static Set<String> drugRows(ClinicalDataset data, String drug) {
        return data.medications().stream().filter(m -> containsWord(m.description(), drug))
                .map(m -> "medications:" + m.medicationId()).collect(Collectors.toCollection(TreeSet::new));
    }

    /** The first word of a medication description that names the drug (not a dose form or unit). */
    static String drugName(String description) {
        for (String word : lower(description).split("[^a-z]+")) {
            if (word.length() >= 6 && !DOSE_WORDS.contains(word)) {
                return word;
            }
        }
        return null;
    }

    private static final Set<String> DOSE_WORDS = Set.of("extended", "release", "tablet", "capsule", "injection",
            "solution", "prefilled", "syringe", "topical", "chewable", "inhaler", "metered", "actuat", "delayed", "coated",
            "suspension", "disintegrating", "powder", "product", "injector", "hydrochloride", "sodium", "potassium",
            "inhalation", "sulfate", "calcium", "acetate", "citrate", "succinate", "tartrate", "besylate", "maleate");

    static boolean mentionedAnywhere(ClinicalDataset data, String lowerTerm) {
        Predicate<String> has = s -> s != null && lower(s).contains(lowerTerm);
        return data.medications().stream().anyMatch(m -> has.test(m.description()) || has.test(m.reasonDescription()))
                || data.conditions().stream().anyMatch(c -> has.test(c.description()) || has.test(c.icd10Code()))
                || data.notes().stream().anyMatch(n -> has.test(n.noteText()) || has.test(n.chiefComplaint()) || has.test(n.secondaryComplaints()))
                || data.encounters().stream().anyMatch(e -> has.test(e.description()) || has.test(e.reasonDescription()));
    }

    static boolean containsWord(String text, String term) {
        return text != null && java.util.regex.Pattern.compile("\\b" + java.util.regex.Pattern.quote(term) + "\\b")
                .matcher(lower(text)).find();
    }

    /** Row ids grouped by a key (rows whose key is null are left out), keys in natural order. */
    static <T> Map<String, Set<String>> groupRows(List<T> rows, java.util.function.Function<T, String> key,
                                                         java.util.function.Function<T, String> rowId) {
        Map<String, Set<String>> grouped = new TreeMap<>();
        for (T row : rows) {
            String k = key.apply(row);
            if (k != null && !k.isBlank()) {
                grouped.computeIfAbsent(k, x -> new TreeSet<>()).add(rowId.apply(row));
            }
        }
        return grouped;
    }

    /** Keys with fewer rows first (pointed questions), then by key. */
    static Map<String, Set<String>> rarestFirst(Map<String, Set<String>> grouped) {
        Map<String, Set<String>> ordered = new LinkedHashMap<>();
        grouped.entrySet().stream()
                .sorted(Map.Entry.<String, Set<String>>comparingByValue(java.util.Comparator.comparingInt(Set::size))
                        .thenComparing(Map.Entry.comparingByKey()))
                .forEach(e -> ordered.put(e.getKey(), e.getValue()));
        return ordered;
    }

    static String lower(String s) {
        return s == null ? "" : s.toLowerCase(Locale.ROOT);
    }
}

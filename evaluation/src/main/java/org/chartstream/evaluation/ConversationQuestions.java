package org.chartstream.evaluation;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.chartstream.datasets.ClinicalDataset;
import org.chartstream.datasets.PatientRow;

/**
 * The clinical questions about which patient a question is about, generated from the dataset:
 * <ul>
 *   <li><b>follow-up</b>: second turns of every kind of reference back ({@code her}/{@code his} medications,
 *       {@code him}, {@code the patient}, {@code what about …}, {@code and the …}) after a
 *       first turn naming the patient in full; judged by that patient's rows of the table asked about;</li>
 *   <li><b>ambiguous name</b>: a first or last name that several patients share ("What medications does Sophia
 *       take?"); no judgments: the expected reply is a clarification, never an answer;</li>
 *   <li><b>accented name</b>: a patient's full name written with accents ({@code Élizabeth Róss}); the patient's
 *       notes.</li>
 * </ul>
 */
final class ConversationQuestions {
    static final String FOLLOW_UP = "follow-up";
    static final String AMBIGUOUS_NAME = "ambiguous name";
    static final String ACCENTED_NAME = "accented name";
    static final int MAX_FOLLOW_UPS = 30;
    static final int MAX_ACCENTED = 10;

    /** A question before it gets its id. */
    record Draft(String kind, String text, String previous, Set<String> rows) {
    }

    /** A first turn naming the patient, the follow-up, and the patient's rows that answer it. */
    private record Turns(String previous, String followUp, Function<PatientRow, Set<String>> rows) {
    }

    private ConversationQuestions() {
    }

    static List<Draft> of(ClinicalDataset data) {
        List<Draft> drafts = new ArrayList<>();
        followUps(data, drafts);
        ambiguousNames(data, drafts);
        accentedNames(data, drafts);
        return drafts;
    }

    private static void followUps(ClinicalDataset data, List<Draft> into) {
        Function<PatientRow, Set<String>> medications = p -> ids(data.medicationsOf(p.patientId()).stream().map(m -> "medications:" + m.medicationId()).toList());
        Function<PatientRow, Set<String>> conditions = p -> ids(data.conditionsOf(p.patientId()).stream().map(c -> "conditions:" + c.conditionId()).toList());
        Function<PatientRow, Set<String>> notes = p -> ids(data.notesOf(p.patientId()).stream().map(n -> "clinical_notes:" + n.noteId()).toList());
        Function<PatientRow, Set<String>> patientRow = p -> Set.of("patients:" + p.patientId());
        List<Turns> kinds = List.of(
                new Turns("What conditions does %s have?", "What about %2$s medications?", medications),
                new Turns("Which medications does %s take?", "And the conditions?", conditions),
                new Turns("What brought %s to the clinic?", "What is %2$s birth date?", patientRow),
                new Turns("When was %s born?", "What conditions does the patient have?", conditions),
                new Turns("What conditions does %s have?", "Which medications were prescribed to %3$s?", medications),
                new Turns("Which medications does %s take?", "What brought %3$s to the clinic?", notes));
        int added = 0;
        int k = 0;
        for (PatientRow p : data.patientsWithNotes()) {
            if (added >= MAX_FOLLOW_UPS) {
                break;
            }
            for (int tried = 0; tried < kinds.size(); tried++) {
                Turns t = kinds.get(k++ % kinds.size());
                Set<String> rows = t.rows().apply(p);
                if (!rows.isEmpty()) {
                    into.add(new Draft(FOLLOW_UP, String.format(t.followUp(), p.fullName(), possessive(p), object(p)),
                            String.format(t.previous(), p.fullName()), rows));
                    added++;
                    break;
                }
            }
        }
    }

    private static void ambiguousNames(ClinicalDataset data, List<Draft> into) {
        Map<String, Long> firsts = data.patients().stream().collect(Collectors.groupingBy(PatientRow::firstName, java.util.TreeMap::new, Collectors.counting()));
        Map<String, Long> lasts = data.patients().stream().collect(Collectors.groupingBy(PatientRow::lastName, java.util.TreeMap::new, Collectors.counting()));
        firsts.forEach((name, n) -> {
            if (n > 1) {
                into.add(new Draft(AMBIGUOUS_NAME, "What medications does " + name + " take?", null, Set.of()));
            }
        });
        lasts.forEach((name, n) -> {
            if (n > 1) {
                into.add(new Draft(AMBIGUOUS_NAME, "When was " + name + " last seen in the clinic?", null, Set.of()));
            }
        });
    }

    private static void accentedNames(ClinicalDataset data, List<Draft> into) {
        Map<String, PatientRow> byAccented = new LinkedHashMap<>();
        for (PatientRow p : data.patientsWithNotes()) {
            String accented = accented(p.firstName()) + " " + accented(p.lastName());
            if (byAccented.size() < MAX_ACCENTED && !accented.equals(p.fullName())) {
                byAccented.put(accented, p);
            }
        }
        byAccented.forEach((name, p) -> into.add(new Draft(ACCENTED_NAME, "What brought " + name + " to the clinic?", null,
                ids(data.notesOf(p.patientId()).stream().map(n -> "clinical_notes:" + n.noteId()).toList()))));
    }

    /** The name with an acute accent on its first vowel: {@code Ross} → {@code Róss}. */
    static String accented(String name) {
        for (int i = 0; i < name.length(); i++) {
            if ("aeiouAEIOU".indexOf(name.charAt(i)) >= 0) {
                return Normalizer.normalize(name.substring(0, i + 1) + "\u0301" + name.substring(i + 1), Normalizer.Form.NFC);
            }
        }
        return name;
    }

    private static Set<String> ids(List<String> ids) {
        return new TreeSet<>(ids);
    }

    private static String possessive(PatientRow p) {
        return "female".equals(p.gender()) ? "her" : "male".equals(p.gender()) ? "his" : "their";
    }

    private static String object(PatientRow p) {
        return "female".equals(p.gender()) ? "her" : "male".equals(p.gender()) ? "him" : "them";
    }
}

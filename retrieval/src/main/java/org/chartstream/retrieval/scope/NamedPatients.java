package org.chartstream.retrieval.scope;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.chartstream.retrieval.PatientScope.PatientCandidate;

/**
 * Which patients a question names, from the directory's candidates, by the strongest evidence it holds:
 * <ol>
 *   <li>a patient number, as a whole word;</li>
 *   <li>a full name, its words in order ({@code Elizabéth Róss} names Elizabeth Ross: accents and case are folded);</li>
 *   <li>one word of a name, written capitalised ({@code Sophia}), unless a capitalised neighbour that is not part of
 *       that patient's name makes it another person's name ({@code Sophia Miller} is not Sophia Brown). The question's
 *       first word is capitalised by grammar and never counts as such a neighbour.</li>
 * </ol>
 * Only the strongest kind found counts: a full name wins over another patient who shares its first name.
 */
public final class NamedPatients {

    /** How the question named them. */
    public enum Evidence { NONE, NUMBER, FULL_NAME, PART_OF_NAME }

    /**
     * The patients named and how.
     *
     * @param byName the named patients grouped by the name (or number) the question used, folded, in question order
     */
    public record Named(Evidence evidence, Map<String, List<PatientCandidate>> byName) {
        static final Named NOBODY = new Named(Evidence.NONE, Map.of());

        /** Every named patient once. */
        public List<PatientCandidate> patients() {
            Map<String, PatientCandidate> distinct = new LinkedHashMap<>();
            byName.values().forEach(list -> list.forEach(c -> distinct.putIfAbsent(c.patientKey(), c)));
            return List.copyOf(distinct.values());
        }
    }

    private NamedPatients() {
    }

    public static Named in(String question, List<PatientCandidate> candidates) {
        List<Words.Word> words = Words.of(question);
        List<String> folded = words.stream().map(Words.Word::folded).toList();
        Map<String, List<PatientCandidate>> numbers = new LinkedHashMap<>();
        Map<String, List<PatientCandidate>> fullNames = new LinkedHashMap<>();
        Map<String, List<PatientCandidate>> parts = new LinkedHashMap<>();
        for (PatientCandidate c : candidates) {
            if (c.patientNumber() != null && folded.contains(Words.fold(c.patientNumber()))) {
                add(numbers, Words.fold(c.patientNumber()), c);
                continue;
            }
            List<String> name = c.name() == null ? List.of() : Words.folded(c.name());
            if (name.isEmpty()) {
                continue;
            }
            if (Collections.indexOfSubList(folded, name) >= 0) {
                add(fullNames, String.join(" ", name), c);
                continue;
            }
            for (int i = 0; i < words.size(); i++) {
                if (words.get(i).capitalised() && name.contains(folded.get(i)) && !anotherPersonsName(words, i, name)) {
                    add(parts, folded.get(i), c);
                    break;
                }
            }
        }
        if (!numbers.isEmpty()) {
            return new Named(Evidence.NUMBER, numbers);
        }
        if (!fullNames.isEmpty()) {
            return new Named(Evidence.FULL_NAME, fullNames);
        }
        return parts.isEmpty() ? Named.NOBODY : new Named(Evidence.PART_OF_NAME, parts);
    }

    private static boolean anotherPersonsName(List<Words.Word> words, int at, List<String> name) {
        for (int n : new int[] {at - 1, at + 1}) {
            if (n > 0 && n < words.size() && words.get(n).capitalised() && !name.contains(words.get(n).folded())) {
                return true;
            }
        }
        return false;
    }

    private static void add(Map<String, List<PatientCandidate>> into, String key, PatientCandidate c) {
        List<PatientCandidate> list = into.computeIfAbsent(key, k -> new ArrayList<>());
        if (list.stream().noneMatch(x -> x.patientKey().equals(c.patientKey()))) {
            list.add(c);
        }
    }
}

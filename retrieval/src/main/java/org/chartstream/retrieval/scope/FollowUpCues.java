package org.chartstream.retrieval.scope;

import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * Whether a question with no patient of its own refers back to a patient of the conversation. Only a turn after the
 * first can: on a first turn these words point inside the question ("my mother ... her diet"), which the caller
 * decides ({@link ScopeResolver}).
 *
 * <ul>
 *   <li>A personal pronoun of one person ({@code she}, {@code his}, {@code him}, ...), {@code this/that/same patient},
 *       {@code their}/{@code they}/{@code them}, {@code the patient} and openings like {@code what about …},
 *       {@code and the …}, {@code how about …} refer back.</li>
 *   <li>A question about several people ({@code patients}, {@code anyone}, {@code everyone}) is a cohort question,
 *       not a follow-up; {@code who}/{@code which patient} questions are too, unless a personal pronoun of one
 *       person says otherwise ("who is her doctor?").</li>
 * </ul>
 */
public final class FollowUpCues {
    private static final Set<String> ONE_PERSON = Set.of("she", "her", "hers", "herself", "he", "him", "his", "himself");
    private static final Set<String> PLURAL = Set.of("they", "them", "their", "theirs", "themselves");
    private static final List<List<String>> THIS_PATIENT = List.of(List.of("this", "patient"), List.of("that", "patient"),
            List.of("same", "patient"), List.of("this", "person"));
    private static final List<List<String>> OPENINGS = List.of(List.of("what", "about"), List.of("how", "about"),
            List.of("and", "the"), List.of("and", "what"), List.of("and", "her"), List.of("and", "his"),
            List.of("and", "their"), List.of("what", "else"), List.of("also"));
    private static final List<String> THE_PATIENT = List.of("the", "patient");
    private static final Set<String> SEVERAL_PEOPLE = Set.of("patients", "anyone", "anybody", "everyone", "everybody", "people");
    private static final List<List<String>> WHO = List.of(List.of("who"), List.of("whom"), List.of("whose"),
            List.of("which", "patient"), List.of("what", "patient"), List.of("any", "patient"));

    private FollowUpCues() {
    }

    private static final Set<String> DEMONSTRATIVE = Set.of("those", "these", "such", "same");
    private static final Set<String> GROUP = Set.of("patients", "people", "ones", "persons", "subjects");

    /**
     * Whether a question refers back to the several patients of the previous answer: "those patients", "these ones",
     * "the same patients"; or, in a question that names no patients or one person, "they", "them", "their" or an
     * opening like "and what …".
     */
    public static boolean refersBackToSet(String question) {
        List<String> words = Words.folded(question);
        for (int i = 0; i + 1 < words.size(); i++) {
            if (DEMONSTRATIVE.contains(words.get(i)) && GROUP.contains(words.get(i + 1))) {
                return true;
            }
        }
        // a question about "patients" asks for a new set ("Which patients have their blood pressure recorded?")
        if (words.stream().anyMatch(SEVERAL_PEOPLE::contains) || words.stream().anyMatch(ONE_PERSON::contains)) {
            return false;
        }
        return words.stream().anyMatch(PLURAL::contains)
                || OPENINGS.stream().anyMatch(p -> words.size() >= p.size() && words.subList(0, p.size()).equals(p));
    }

    public static boolean refersBack(String question) {
        List<String> words = Words.folded(question);
        if (words.stream().anyMatch(SEVERAL_PEOPLE::contains)) {
            return false;
        }
        if (words.stream().anyMatch(ONE_PERSON::contains) || THIS_PATIENT.stream().anyMatch(p -> contains(words, p))) {
            return true;
        }
        if (WHO.stream().anyMatch(p -> contains(words, p))) {
            return false;
        }
        return OPENINGS.stream().anyMatch(p -> words.size() >= p.size() && words.subList(0, p.size()).equals(p))
                || words.stream().anyMatch(PLURAL::contains) || contains(words, THE_PATIENT);
    }

    private static boolean contains(List<String> words, List<String> phrase) {
        return Collections.indexOfSubList(words, phrase) >= 0;
    }
}

package org.chartstream.retrieval.scope;

import java.util.List;
import java.util.Set;

/**
 * Whether a question with no patient of its own refers back to a patient of the conversation.
 *
 * <ul>
 *   <li>A personal pronoun of one person ({@code she}, {@code his}, {@code him}, ...) or {@code this/that/same patient}
 *       always refers to someone: with no earlier turn about one patient the reply must ask which.</li>
 *   <li>{@code their}/{@code they}/{@code them}, {@code the patient} and openings like {@code what about …}, {@code and the …},
 *       {@code how about …} refer back only when there is an earlier turn: on a first turn they are ordinary words.</li>
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

    /** How a question refers back. */
    public enum Reference {
        /** It does not. */
        NONE,
        /** A pronoun of one person ("her", "his"): on any turn after the first it refers back. */
        ALWAYS,
        /** A weaker cue ("their", "what about …"): it refers back when there is an earlier turn. */
        WITH_HISTORY
    }

    private FollowUpCues() {
    }

    public static Reference of(String question) {
        List<String> words = Words.folded(question);
        if (words.stream().anyMatch(SEVERAL_PEOPLE::contains)) {
            return Reference.NONE;
        }
        boolean onePerson = words.stream().anyMatch(ONE_PERSON::contains)
                || THIS_PATIENT.stream().anyMatch(p -> java.util.Collections.indexOfSubList(words, p) >= 0);
        if (onePerson) {
            return Reference.ALWAYS;
        }
        if (WHO.stream().anyMatch(p -> java.util.Collections.indexOfSubList(words, p) >= 0)) {
            return Reference.NONE;
        }
        boolean opening = OPENINGS.stream().anyMatch(p -> words.size() >= p.size() && words.subList(0, p.size()).equals(p));
        return opening || words.stream().anyMatch(PLURAL::contains) || java.util.Collections.indexOfSubList(words, THE_PATIENT) >= 0
                ? Reference.WITH_HISTORY : Reference.NONE;
    }
}

package org.chartstream.retrieval.cohort;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.chartstream.retrieval.gate.QuestionAnchors;

/**
 * A question that asks for every patient or record holding one exact anchor: "Which patients take lisinopril?",
 * "Which patients have a condition with ICD-10 code E11.9?", "Is anyone on metformin?". It asks for all (which or what
 * patients or records, who, list, find, how many, is anyone, is there a patient), names exactly one code or one drug
 * or condition word in an anchor position ({@link QuestionAnchors#term}), and names no patient; or it is a code and
 * nothing else ("E11.9").
 *
 * @param anchor the code or word as the question writes it
 * @param kind   what the anchor is
 */
public record CohortQuestion(String anchor, Kind kind) {

    public enum Kind { CODE, DRUG, CONDITION }

    private static final Pattern ASKS_FOR_ALL = Pattern.compile("^\\W*(?:(?:which|what)\\s+(?:patients?|people|persons?"
            + "|records?|rows?|prescriptions?|conditions?|diagnos[ie]s|medications?)\\b|who(?:m)?\\b|list\\b|show\\b|find\\b"
            + "|how\\s+many\\b|(?:is|are)\\s+(?:there|any(?:one|body)?|some(?:one|body))\\b|does\\s+any(?:one|body)\\b"
            + "|(?:any|every)(?:one|body)\\b)", Pattern.CASE_INSENSITIVE);

    /** A question that is nothing but one code ("E11.9"): the records holding it are what is asked for. */
    private static final Pattern BARE_CODE = Pattern.compile("^\\W*\\S+?[?.!]*\\s*$");

    /** Whether the question asks for every patient or record of a kind (with or without an exact anchor). */
    public static boolean asksForAll(String question) {
        return ASKS_FOR_ALL.matcher(question).find();
    }

    /** The cohort {@code question} asks for, if it is one. */
    public static Optional<CohortQuestion> of(String question) {
        return of(question, List.of());
    }

    /**
     * The cohort {@code question} asks for, if it is one.
     *
     * @param patientNumbers the question's words (folded) that name a patient by number: the question names a patient
     */
    public static Optional<CohortQuestion> of(String question, List<String> patientNumbers) {
        List<QuestionAnchors.Anchor> codes = QuestionAnchors.codes(question, patientNumbers);
        if (codes.size() == 1 && BARE_CODE.matcher(question).matches()) {
            return Optional.of(new CohortQuestion(codes.get(0).text(), Kind.CODE));
        }
        if (!asksForAll(question) || !QuestionAnchors.names(question, patientNumbers).isEmpty()) {
            return Optional.empty();
        }
        if (codes.size() == 1) {
            return Optional.of(new CohortQuestion(codes.get(0).text(), Kind.CODE));
        }
        if (!codes.isEmpty()) {
            return Optional.empty();
        }
        return QuestionAnchors.term(question).map(t -> new CohortQuestion(t.anchor().text(),
                t.kind() == QuestionAnchors.TermKind.DRUG ? Kind.DRUG : Kind.CONDITION));
    }
}

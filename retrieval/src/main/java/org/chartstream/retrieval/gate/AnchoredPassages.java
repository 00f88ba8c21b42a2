package org.chartstream.retrieval.gate;

import java.util.List;
import org.chartstream.retrieval.Candidate;

/**
 * For a question that names a code, a drug or condition word in an anchor position, or a patient by full name
 * ({@link QuestionAnchors}), only the passages that mention every one of them may be cited: the demo's "Which patients
 * have a condition with ICD-10 code F19.20?" cited its two rows and then four rows of I10 hypertension. The tail is
 * cut, never padded with other passages; a question without anchors keeps every passage.
 */
public final class AnchoredPassages {
    private AnchoredPassages() {
    }

    /** The candidates, in their order, that mention all of the question's anchors. */
    public static List<Candidate> mentioning(String question, List<Candidate> candidates) {
        return mentioning(question, List.of(), candidates);
    }

    /**
     * The candidates, in their order, that mention all of the question's anchors.
     *
     * @param patientNumbers the question's words (folded) that name a patient by number: persons, not codes
     */
    public static List<Candidate> mentioning(String question, List<String> patientNumbers, List<Candidate> candidates) {
        List<QuestionAnchors.Anchor> anchors = QuestionAnchors.of(question, patientNumbers);
        if (anchors.isEmpty()) {
            return candidates;
        }
        return candidates.stream().filter(c -> QuestionAnchors.mentionsAll(anchors, c.chunk().text())).toList();
    }
}

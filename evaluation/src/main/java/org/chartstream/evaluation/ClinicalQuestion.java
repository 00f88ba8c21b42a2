package org.chartstream.evaluation;

import java.util.Map;
import java.util.Objects;

/**
 * One question of the clinical question set.
 *
 * @param id         stable id ({@code c001}, ...)
 * @param kind       what it tests: {@code icd10 code}, {@code snomed code}, {@code rxnorm code}, {@code drug name},
 *                   {@code paraphrased condition}, {@code complaint}, {@code named patient}, {@code follow-up},
 *                   {@code accented name}, {@code ambiguous name} (expects a clarification), or for unanswerable questions {@code absent patient}, {@code absent drug}, {@code absent code},
 *                   {@code outside the records}
 * @param text       the question as asked
 * @param previous   for a follow-up, the question of the turn before it (which names the patient); otherwise null
 * @param judgments  the rows that answer it ({@code table:row_key} → grade); empty: the records cannot answer it
 */
public record ClinicalQuestion(String id, String kind, String text, String previous, Map<String, Integer> judgments) {
    public ClinicalQuestion {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(text, "text");
        judgments = Map.copyOf(judgments);
    }

    public boolean answerable() {
        return !judgments.isEmpty();
    }

    public boolean followUp() {
        return previous != null;
    }

    /** A name several patients share: the expected reply asks which patient, and no answer is right. */
    public boolean expectsClarification() {
        return ConversationQuestions.AMBIGUOUS_NAME.equals(kind);
    }

    /** Ids only: the text may name a patient. */
    @Override
    public String toString() {
        return "ClinicalQuestion[" + id + ", " + kind + ", " + judgments.size() + " answering rows]";
    }
}

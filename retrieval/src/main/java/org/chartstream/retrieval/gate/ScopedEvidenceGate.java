package org.chartstream.retrieval.gate;

import java.util.List;
import java.util.Objects;
import org.chartstream.retrieval.Candidate;

/**
 * The pointed-versus-broad gate (docs/ARCHITECTURE.md, "The gate"): a pointed question is refused when its best passage
 * scores below the threshold; a broad question is refused only when nothing was retrieved. Both refuse with no passage,
 * and both refuse when the question names a code, a drug or condition word in an anchor position, or a full name that
 * no retrieved passage mentions ({@link QuestionAnchors}).
 *
 * <p>The threshold belongs to the scorer that produced the scores: {@value #DEFAULT_CROSS_ENCODER_THRESHOLD} is the
 * default for a cross-encoder's sigmoid; a bi-encoder's cosine needs its own, calibrated value.
 */
public final class ScopedEvidenceGate {
    /** Default pointed-question threshold for {@code cross-encoder-sigmoid} scores. */
    public static final double DEFAULT_CROSS_ENCODER_THRESHOLD = 0.30;

    private final String scorer;
    private final double threshold;

    public ScopedEvidenceGate(String scorer, double threshold) {
        if (scorer == null || scorer.isBlank()) {
            throw new IllegalArgumentException("the gate needs the name of the scorer its threshold belongs to");
        }
        if (!(threshold >= -1 && threshold <= 1)) {
            throw new IllegalArgumentException("gate threshold must be within [-1, 1], got " + threshold);
        }
        this.scorer = scorer;
        this.threshold = threshold;
    }

    public String scorer() {
        return scorer;
    }

    public double threshold() {
        return threshold;
    }

    /**
     * Classifies {@code question} and decides on the reranked candidates.
     *
     * @param kept       the candidates left after the {@link TailTrim}: their best rerank score and their number decide
     * @param considered the reranked top k before the trim, whose texts the question's anchors must be mentioned in
     */
    public ScopedGateDecision decide(String question, List<Candidate> kept, List<Candidate> considered) {
        return decide(question, List.of(), kept, considered);
    }

    /**
     * Classifies {@code question} and decides on the reranked candidates.
     *
     * @param patientNumbers the question's words (folded) that name a patient by number: persons, not codes
     * @param kept           the candidates left after the {@link TailTrim}
     * @param considered     the reranked top k before the trim
     */
    public ScopedGateDecision decide(String question, List<String> patientNumbers, List<Candidate> kept,
                                     List<Candidate> considered) {
        double best = kept.stream().mapToDouble(Candidate::rerankScore).max().orElse(Double.NEGATIVE_INFINITY);
        List<QuestionAnchors.Anchor> unmentioned = QuestionAnchors.unmentioned(QuestionAnchors.of(question, patientNumbers),
                considered.stream().map(c -> c.chunk().text()).toList());
        // the anchor cut (AnchoredPassages) leaves nothing when no passage mentions an anchor: that is the reason then
        int passages = kept.isEmpty() && !unmentioned.isEmpty() ? considered.size() : kept.size();
        return decide(question, best, passages, unmentioned);
    }

    /** Classifies {@code question} and decides. */
    public ScopedGateDecision decide(String question, double bestScore, int passages) {
        return decide(QuestionScopeClassifier.classify(Objects.requireNonNull(question, "question")), bestScore, passages);
    }

    public ScopedGateDecision decide(QuestionScopeClassifier.Classification scope, double bestScore, int passages) {
        return decide(scope, bestScore, passages, List.of());
    }

    /**
     * Classifies {@code question} and decides.
     *
     * @param unmentioned the question's anchors that no retrieved passage mentions ({@link QuestionAnchors#unmentioned})
     */
    public ScopedGateDecision decide(String question, double bestScore, int passages, List<QuestionAnchors.Anchor> unmentioned) {
        return decide(QuestionScopeClassifier.classify(Objects.requireNonNull(question, "question")), bestScore, passages, unmentioned);
    }

    public ScopedGateDecision decide(QuestionScopeClassifier.Classification scope, double bestScore, int passages,
                                     List<QuestionAnchors.Anchor> unmentioned) {
        Objects.requireNonNull(scope, "scope");
        if (passages <= 0) {
            return decision(false, scope, Double.NEGATIVE_INFINITY, 0, "nothing retrieved");
        }
        if (!unmentioned.isEmpty()) {
            // the anchors are not named: the reason reaches the audit and the reply, never the log, but says only how many
            return decision(false, scope, bestScore, passages, unmentioned.size() == 1
                    ? "the question names a code, person, drug or condition that no retrieved record mentions"
                    : "the question names " + unmentioned.size() + " codes, persons, drugs or conditions that no retrieved record mentions");
        }
        if (bestScore >= threshold) {
            return decision(true, scope, bestScore, passages, "evidence at or above threshold");
        }
        if (scope.scope() == QuestionScope.BROAD) {
            return decision(true, scope, bestScore, passages,
                    "broad question answered from what was retrieved although evidence is below threshold");
        }
        return decision(false, scope, bestScore, passages, "pointed question and best evidence below threshold");
    }

    private ScopedGateDecision decision(boolean answer, QuestionScopeClassifier.Classification scope, double best,
                                        int passages, String reason) {
        return new ScopedGateDecision(answer, scope.scope(), scope.rule(), scorer, best, threshold, passages, reason);
    }
}

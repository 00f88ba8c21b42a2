package org.chartstream.retrieval.fusion;

import java.util.List;
import java.util.function.ToDoubleFunction;
import org.chartstream.retrieval.Candidate;
import org.chartstream.retrieval.gate.QuestionAnchors;

/**
 * {@link NormalizedScoreFusion} with the vector weight chosen per query from the two lists themselves: each side's
 * weight follows how far its first hit stands out from the rest of its list. A side whose best hit is far ahead of its
 * next ones (an exact code or name that BM25 finds in a few rows; a passage the embedding matches much better than
 * anything else) carries evidence; a side whose first places score alike (the embedding of a code question, which
 * rates every row of that kind the same; BM25 of lay words that half the rows share) does not.
 *
 * <p>stand-out(side) = 1 − mean of the side's min-max normalised scores at places 2 to {@value #DEPTH} (0 for an
 * empty list or one whose scores are all equal, 1 for a single hit), and
 * <pre>  w = (1 − {@value #BLEND}) · {@value #PRIOR_VECTOR_WEIGHT} + {@value #BLEND} · s_v^γ / (s_v^γ + s_l^γ),  γ = {@value #SHARPNESS}</pre>
 * (the prior alone when neither side stands out). A question that names one particular thing, a code or a full
 * name ({@link QuestionAnchors}), is what BM25 matches exactly and an embedding does not tell apart from its
 * neighbours (every patient's rows look alike to it): when the lexical side's first row mentions every such anchor,
 * the vector weight is multiplied by {@value #ANCHORED_FACTOR}. When it does not, BM25 has not found the thing named
 * (a misspelt or capitalised disease name, "Antiphosoholipid Syndrome", is no exact match in any row), so the weight
 * stays as the lists set it. With several query variants the weight is read off the first variant's lists and
 * applies to every variant.
 *
 * <p>Tuned (DEPTH, SHARPNESS, BLEND, ANCHORED_FACTOR) on the rankings of liveqa-med-clean, eval/clinical,
 * eval/aci-patient-words and eval/aci-visit-summary with all-MiniLM-L6-v2 (docs/history/EVALUATION-sessions-1-21.md,
 * "Fusion: query-adaptive"); the prior 0.4 is the earlier fixed weight, chosen on liveqa-med-clean and eval/clinical.
 */
public final class AdaptiveFusion {
    static final int DEPTH = 20;
    static final double PRIOR_VECTOR_WEIGHT = 0.4;
    static final double BLEND = 1.0;
    static final double SHARPNESS = 1.0;
    static final double ANCHORED_FACTOR = 0.25;

    private AdaptiveFusion() {
    }

    /**
     * Fuses every side of every query variant with the weight {@link #vectorWeight} reads off the first variant.
     *
     * @param question the question the lists answer (its anchors, when the first lexical row mentions them, lower the
     *                 vector weight)
     */
    public static List<Candidate> fuseAll(String question, List<List<Candidate>> vectorLists,
                                          List<List<Candidate>> lexicalLists) {
        List<Candidate> lexical = lexicalLists.isEmpty() ? List.of() : lexicalLists.get(0);
        double w = vectorWeight(vectorLists.isEmpty() ? List.of() : vectorLists.get(0), lexical);
        return NormalizedScoreFusion.fuseAll(vectorLists, lexicalLists,
                lexicalFoundTheAnchors(question, lexical) ? w * ANCHORED_FACTOR : w);
    }

    /** Whether the question names a code or a name and the lexical side's first row mentions every one of them. */
    static boolean lexicalFoundTheAnchors(String question, List<Candidate> lexical) {
        List<QuestionAnchors.Anchor> anchors = QuestionAnchors.of(question);
        return !anchors.isEmpty() && !lexical.isEmpty()
                && QuestionAnchors.mentionsAll(anchors, lexical.get(0).chunk().text());
    }

    /** The vector side's weight for one query's two lists (best first, one candidate per row). */
    public static double vectorWeight(List<Candidate> vector, List<Candidate> lexical) {
        double v = Math.pow(standOut(vector, Candidate::vectorScore), SHARPNESS);
        double l = Math.pow(standOut(lexical, Candidate::lexicalScore), SHARPNESS);
        double evidence = v + l > 0 ? v / (v + l) : PRIOR_VECTOR_WEIGHT;
        return (1 - BLEND) * PRIOR_VECTOR_WEIGHT + BLEND * evidence;
    }

    /** How far a list's first hit stands out from its next places, in [0, 1]. */
    static double standOut(List<Candidate> side, ToDoubleFunction<Candidate> score) {
        return standOut(side.stream().mapToDouble(score).toArray());
    }

    /**
     * How far the first of a list's scores (best first, one per row) stands out from its next places, in [0, 1]: 1 −
     * the mean of the min-max normalised scores at places 2 to {@value #DEPTH}.
     */
    public static double standOut(double[] scores) {
        if (scores.length < 2) {
            return scores.length;
        }
        double max = Double.NEGATIVE_INFINITY;
        double min = Double.POSITIVE_INFINITY;
        for (double x : scores) {
            max = Math.max(max, x);
            min = Math.min(min, x);
        }
        if (!(max > min)) {
            return 0;
        }
        int places = Math.min(DEPTH, scores.length) - 1;
        double sum = 0;
        for (int i = 1; i <= places; i++) {
            sum += (scores[i] - min) / (max - min);
        }
        return 1 - sum / places;
    }
}

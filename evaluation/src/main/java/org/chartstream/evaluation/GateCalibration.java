package org.chartstream.evaluation;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Refusal precision and recall of the pointed/broad gate over a sweep of thresholds, from each question's best
 * score under the scorer in use. A question is refused at threshold t when nothing was retrieved, when it names a
 * code or person that no retrieved record mentions (at any threshold), or when it is pointed and its best score is
 * below t (broad questions are answered whatever the score: the gate's rule).
 *
 * <p>The recommended threshold maximises the F1 of refusal (unanswerable questions are the positive class); among
 * equal F1 the lowest threshold wins, as it refuses fewer answerable questions.
 */
public final class GateCalibration {
    /**
     * One question's gate inputs.
     *
     * @param unmentionedAnchor the question names a code or person that none of its retrieved records mentions
     */
    public record Observation(boolean answerable, boolean pointed, int passages, double bestScore, boolean unmentionedAnchor) {
        public Observation(boolean answerable, boolean pointed, int passages, double bestScore) {
            this(answerable, pointed, passages, bestScore, false);
        }
    }

    /** The gate's outcome at one threshold. */
    public record Point(double threshold, int falseRefusals, int answerable, int falseAnswers, int unanswerable,
                        double refusalPrecision, double refusalRecall, double refusalF1) {
        /** Share of answerable questions refused. */
        public double falseRefusalRate() {
            return answerable == 0 ? 0 : (double) falseRefusals / answerable;
        }

        /** Share of unanswerable questions answered. */
        public double falseAnswerRate() {
            return unanswerable == 0 ? 0 : (double) falseAnswers / unanswerable;
        }
    }

    /** The sweep and the recommended point. */
    public record Result(List<Point> sweep, Point recommended) {
    }

    public static final String RULE = "maximise the F1 of refusal (unanswerable = positive); ties go to the lowest threshold";

    private GateCalibration() {
    }

    public static boolean refused(Observation o, double threshold) {
        return o.passages() <= 0 || o.unmentionedAnchor() || (o.pointed() && o.bestScore() < threshold);
    }

    /** Sweeps thresholds from {@code from} to {@code to} in {@code step}s. */
    public static Result sweep(List<Observation> observations, double from, double to, double step) {
        Objects.requireNonNull(observations, "observations");
        if (!(step > 0) || to < from) {
            throw new IllegalArgumentException("need from ≤ to and a positive step");
        }
        List<Point> points = new ArrayList<>();
        Point best = null;
        int steps = (int) Math.round((to - from) / step);
        for (int i = 0; i <= steps; i++) {
            double t = Math.round((from + i * step) * 1e6) / 1e6;
            Point p = point(observations, t);
            points.add(p);
            if (best == null || p.refusalF1() > best.refusalF1() + 1e-12) {
                best = p;
            }
        }
        return new Result(points, best);
    }

    public static Point point(List<Observation> observations, double threshold) {
        int answerable = 0;
        int unanswerable = 0;
        int falseRefusals = 0;
        int trueRefusals = 0;
        for (Observation o : observations) {
            boolean refused = refused(o, threshold);
            if (o.answerable()) {
                answerable++;
                falseRefusals += refused ? 1 : 0;
            } else {
                unanswerable++;
                trueRefusals += refused ? 1 : 0;
            }
        }
        int refusals = trueRefusals + falseRefusals;
        double precision = refusals == 0 ? 0 : (double) trueRefusals / refusals;
        double recall = unanswerable == 0 ? 0 : (double) trueRefusals / unanswerable;
        double f1 = precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall);
        return new Point(threshold, falseRefusals, answerable, unanswerable - trueRefusals, unanswerable, precision, recall, f1);
    }
}

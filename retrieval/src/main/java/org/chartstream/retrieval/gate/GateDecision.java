package org.chartstream.retrieval.gate;

/** Whether the evidence is strong enough to answer, with the score and threshold that decided it. */
public record GateDecision(boolean answer, String scorer, double bestScore, double threshold, String reason) {
    public String describe() {
        return (answer ? "answer" : "refuse") + " (" + scorer + " best=" + String.format("%.3f", bestScore)
                + " threshold=" + String.format("%.3f", threshold) + ": " + reason + ")";
    }
}

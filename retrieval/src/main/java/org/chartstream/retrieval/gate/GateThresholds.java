package org.chartstream.retrieval.gate;

import org.chartstream.retrieval.rerank.ScoreScale;

/**
 * The pointed-question thresholds of the gate, one per score scale ({@code gate.threshold.*}).
 *
 * @param biEncoder    refuse a pointed question when the best bi-encoder cosine is below this
 * @param crossEncoder the same for a cross-encoder's sigmoid score
 */
public record GateThresholds(double biEncoder, double crossEncoder) {

    /** The gate for the scorer actually in use: thresholds live on the scorer's own scale. */
    public ScopedEvidenceGate gateFor(String scorer, ScoreScale scale) {
        return new ScopedEvidenceGate(scorer, switch (scale) {
            case CROSS_ENCODER_SIGMOID -> crossEncoder;
            case BI_ENCODER_COSINE -> biEncoder;
        });
    }
}

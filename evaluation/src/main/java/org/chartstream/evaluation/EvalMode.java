package org.chartstream.evaluation;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.chartstream.retrieval.SearchMode;

/**
 * What an evaluation run asks the query pipeline for. {@link #HYBRID_RERANK} is hybrid search through the rerank stage
 * the query topology wires: the cross-encoder's order when {@code rerank.model-dir} is configured, else the fused order
 * kept (a bi-encoder reorder only repeats the vector side and lost on every set measured,
 * docs/history/EVALUATION-sessions-1-21.md, "Rerank without a cross-encoder"). {@link #HYBRID_FIXED} and
 * {@link #HYBRID_RRF} are hybrid search with {@code query.fusion=score} (the fixed {@code query.vector-weight}) and
 * {@code query.fusion=rrf} whatever the configured fusion: the fusions side by side. {@link #HYBRID_SENTENCES_MEAN},
 * {@link #HYBRID_SENTENCES_MAX} and {@link #HYBRID_SENTENCES_BLEND} are hybrid search with a question of several
 * sentences also embedded sentence by sentence ({@code SentenceVectors.MEAN}, {@code MAX}, {@code BLEND}), and
 * {@link #HYBRID_QUESTIONS_MAX} with only the sentences that ask ({@code SentenceVectors.QUESTIONS}),
 * {@link #HYBRID_SENTENCES_STANDOUT} with only the sentences whose list stands out ({@code SentenceVectors.STANDOUT}),
 * and {@link #HYBRID_SENTENCES_OFF} without it ({@code query.sentence-vectors=off}) whatever the configuration, each
 * without a cross-encoder. (The feedback modes {@code hybrid+feedback} and {@code hybrid+rm3} were removed with their
 * experiments in session 22; their figures are in docs/EVALUATION.md, "Rules measured and not taken", and the history
 * file, sessions 8 and 9.)
 */
public enum EvalMode {
    LEXICAL("lexical", SearchMode.LEXICAL),
    VECTOR("vector", SearchMode.VECTOR),
    HYBRID("hybrid", SearchMode.HYBRID),
    HYBRID_RERANK("hybrid+rerank", SearchMode.HYBRID),
    HYBRID_FIXED("hybrid+fixed", SearchMode.HYBRID),
    HYBRID_RRF("hybrid+rrf", SearchMode.HYBRID),
    HYBRID_SENTENCES_MEAN("hybrid+sentences-mean", SearchMode.HYBRID),
    HYBRID_SENTENCES_MAX("hybrid+sentences-max", SearchMode.HYBRID),
    HYBRID_SENTENCES_BLEND("hybrid+sentences-blend", SearchMode.HYBRID),
    HYBRID_SENTENCES_OFF("hybrid+sentences-off", SearchMode.HYBRID),
    HYBRID_QUESTIONS_MAX("hybrid+questions-max", SearchMode.HYBRID),
    HYBRID_SENTENCES_STANDOUT("hybrid+sentences-standout", SearchMode.HYBRID);

    private final String label;
    private final SearchMode searchMode;

    EvalMode(String label, SearchMode searchMode) {
        this.label = label;
        this.searchMode = searchMode;
    }

    public String label() {
        return label;
    }

    public SearchMode searchMode() {
        return searchMode;
    }

    public static EvalMode of(String label) {
        for (EvalMode m : values()) {
            if (m.label.equals(label.strip().toLowerCase(Locale.ROOT))) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown mode '" + label + "'; known: lexical, vector, hybrid, hybrid+rerank, hybrid+fixed, hybrid+rrf, hybrid+sentences-mean, hybrid+sentences-max, hybrid+sentences-blend, hybrid+sentences-off, hybrid+questions-max, hybrid+sentences-standout");
    }

    /** A comma list of labels, in the order given. */
    public static List<EvalMode> list(String commaList) {
        List<EvalMode> modes = new ArrayList<>();
        for (String part : commaList.split(",")) {
            if (!part.isBlank() && !modes.contains(of(part))) {
                modes.add(of(part));
            }
        }
        if (modes.isEmpty()) {
            throw new IllegalArgumentException("no mode given");
        }
        return modes;
    }
}

package org.chartstream.evaluation;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.chartstream.retrieval.SearchMode;

/**
 * What an evaluation run asks the query pipeline for. {@link #HYBRID_RERANK} is hybrid search whose rerank prefix is
 * really reordered by the scorer in use (the bi-encoder cosine when no cross-encoder is configured), where the shipped
 * wiring keeps the fused order for a bi-encoder. {@link #HYBRID_RRF} is hybrid search with reciprocal rank fusion
 * ({@code query.fusion=rrf}) whatever the configured fusion: the two fusions side by side.
 */
public enum EvalMode {
    LEXICAL("lexical", SearchMode.LEXICAL),
    VECTOR("vector", SearchMode.VECTOR),
    HYBRID("hybrid", SearchMode.HYBRID),
    HYBRID_RERANK("hybrid+rerank", SearchMode.HYBRID),
    HYBRID_RRF("hybrid+rrf", SearchMode.HYBRID);

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
        throw new IllegalArgumentException("unknown mode '" + label + "'; known: lexical, vector, hybrid, hybrid+rerank, hybrid+rrf");
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

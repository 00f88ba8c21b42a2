package org.chartstream.query;

import org.chartstream.retrieval.QuerySettings;

/**
 * The query topology's limits on a request and its threads (plain values; the retrieval stages never see them).
 *
 * @param maxQuestionChars longer questions (in Unicode code points) are rejected with an error reply
 *                         ({@code query.max-question-chars})
 * @param maxTopK          largest top_k a request may ask for ({@link QuerySettings#MAX_TOP_K}); larger ones are rejected
 *                         naming top_k, up to it every passage is cited (the context budget is shared among them)
 * @param workers          threads running the pipeline ({@code query.workers})
 */
public record QueryTransportSettings(int maxQuestionChars, int maxTopK, int workers) {
    public QueryTransportSettings {
        if (maxQuestionChars < 1 || maxTopK < 1 || workers < 1) {
            throw new IllegalArgumentException("maxQuestionChars, maxTopK and workers must be >= 1");
        }
    }

    public static QueryTransportSettings defaults() {
        return new QueryTransportSettings(4000, QuerySettings.MAX_TOP_K, 2);
    }
}

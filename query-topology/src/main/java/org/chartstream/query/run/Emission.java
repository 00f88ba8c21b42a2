package org.chartstream.query.run;

import java.util.List;
import org.chartstream.retrieval.QueryPipeline;
import org.chartstream.retrieval.generate.Passage;
import org.chartstream.schemas.PendingRequest;

/** What a worker hands back to the stream thread, in order: citations, tokens, then the completion. */
public sealed interface Emission {
    PendingRequest pending();

    record Citations(PendingRequest pending, List<Passage> passages) implements Emission {
    }

    record Token(PendingRequest pending, String token) implements Emission {
    }

    /** The run's result, or the failure that ended it (then {@code result} is null). */
    record Completion(PendingRequest pending, QueryPipeline.Result result, RuntimeException failure) implements Emission {
    }
}

package org.chartstream.query.run;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import org.chartstream.query.RetrievalTypes;
import org.chartstream.retrieval.QueryPipeline;
import org.chartstream.retrieval.generate.Passage;
import org.chartstream.schemas.ConversationMemory;
import org.chartstream.schemas.PendingRequest;
import org.chartstream.schemas.QueryRequest;

/**
 * Runs requests through the pipeline on worker threads. Whatever a run emits is queued, in order, until the stream
 * thread {@link #drain drains} it: workers never touch the Streams context or its stores.
 */
public final class PipelineRuns {
    private final QueryPipeline pipeline;
    private final ExecutorService workers;
    private final ConcurrentLinkedQueue<Emission> emissions = new ConcurrentLinkedQueue<>();

    public PipelineRuns(QueryPipeline pipeline, ExecutorService workers) {
        this.pipeline = pipeline;
        this.workers = workers;
    }

    /**
     * Runs the request with its conversation's memory (read on the stream thread, null for a first turn). A run that
     * throws, or that the workers refuse, completes with the failure.
     */
    public void start(PendingRequest p, ConversationMemory memory) {
        QueryRequest r = p.getRequest();
        long deadlineMs = r.getDeadlineMs() == null ? Long.MAX_VALUE : r.getDeadlineMs();
        try {
            workers.execute(() -> {
                try {
                    QueryPipeline.Listener listener = new QueryPipeline.Listener() {
                        @Override
                        public void onCitations(List<Passage> passages) {
                            emissions.add(new Emission.Citations(p, passages));
                        }

                        @Override
                        public void onToken(String token) {
                            emissions.add(new Emission.Token(p, token));
                        }
                    };
                    emissions.add(new Emission.Completion(p, pipeline.run(r.getQuestion(), RetrievalTypes.mode(r.getMode()),
                            r.getTopK(), RetrievalTypes.filter(r.getFilter()), RetrievalTypes.history(memory), listener,
                            deadlineMs), null));
                } catch (RuntimeException e) {
                    emissions.add(new Emission.Completion(p, null, e));
                }
            });
        } catch (RejectedExecutionException e) {
            emissions.add(new Emission.Completion(p, null, e));
        }
    }

    /** Hands every queued emission to {@code deliver}, oldest first, until none is left. */
    public void drain(Consumer<Emission> deliver) {
        Emission e;
        while ((e = emissions.poll()) != null) {
            deliver.accept(e);
        }
    }
}

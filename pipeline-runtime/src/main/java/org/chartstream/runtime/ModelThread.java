package org.chartstream.runtime;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.chartstream.ingest.embed.PassageEmbedder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one thread of an ingest process that runs its embedding model, at a higher nice value than the pipeline's other
 * threads ({@code ingest.model-nice}). Bulk embedding keeps every core it gets busy; at the same priority it delays the
 * short, latency-bound work that feeds it: the planner's transactions, a co-located broker's request threads,
 * Debezium handing changes over, and on a shared host the source database itself. With two instances' models filling
 * both cores of a machine (bench scaleout), the planner forwarded the snapshot's first rows at a few dozen a second and
 * the embedding tasks waited for input (docs/history/PERFORMANCE-sessions-1-21.md, "Session 17"). At a higher nice
 * value the model takes what the other threads leave, which on an otherwise idle core is all of it. The stream threads
 * hand each embedding call over and wait for it, so the calls stay one at a time and in order; with
 * {@code embedding.threads} above 1, ONNX Runtime's own pool threads keep the priority of the thread that loaded the
 * model.
 */
final class ModelThread implements AutoCloseable {
    static final String NAME = "ingest-model";
    private static final Logger LOG = LoggerFactory.getLogger(ModelThread.class);

    private final ExecutorService executor;

    ModelThread(int nice) {
        this.executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(() -> {
                if (!ThreadNice.setForCurrentThread(nice)) {
                    LOG.warn("the embedding model's thread keeps the priority of the others: nice {} (ingest.model-nice) could not be"
                            + " set (only Linux gives one thread its own, and only at or above the process's own nice value)", nice);
                }
                r.run();
            }, NAME);
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * {@code model}'s calls made on this thread, or {@code model} itself when {@code nice} is 0 (no thread: the calls
     * run on the stream threads as they come).
     */
    static PassageEmbedder lowered(PassageEmbedder model, int nice, StartedParts started) {
        if (nice == 0) {
            return model;
        }
        ModelThread thread = started.add(new ModelThread(nice));
        return thread.embedder(model);
    }

    PassageEmbedder embedder(PassageEmbedder model) {
        return PassageEmbedder.of(model.modelId(), model.dimension(), texts -> call(() -> model.embedPassages(texts)));
    }

    /** Runs {@code work} on this thread and waits for it; what it throws is thrown here. */
    <T> T call(Callable<T> work) {
        Future<T> result = executor.submit(work);
        try {
            return result.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the embedding model's thread", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    @Override
    public void close() {
        // a call still queued would leave its caller waiting for ever: it is cancelled, and its caller gets the exception
        for (Runnable queued : executor.shutdownNow()) {
            if (queued instanceof Future<?> call) {
                call.cancel(false);
            }
        }
    }
}

package org.chartstream.benchmarks;

import java.util.List;
import org.chartstream.models.ModelDescriptor;
import org.chartstream.models.OnnxEmbedder;
import org.chartstream.models.OnnxRuntimeGuard;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * Two ways to spend two cores on the default model (int8 MiniLM, one text per run), on the chunks of
 * {@link PassageEmbeddingBenchmark}: one session on 2 intra-op threads, called by one thread (an ingest process's
 * model, {@code embedding.threads=2}), against two sessions of one intra-op thread each, called side by side (two
 * ingest instances of {@code bench scaleout}, {@code embedding.threads=1}). With {@code @Threads(2)} JMH reports each
 * caller's time per operation, so the pair embeds {@code 2 × CHUNKS} chunks in that time: compare
 * {@code CHUNKS / oneSessionOnTwoThreads} with {@code 2 × CHUNKS / twoSessionsOfOneThreadSideBySide} (chunks per µs),
 * and {@code oneSessionOnOneThread} is the one-instance figure of {@code bench scaleout}.
 */
public class ModelCoresBenchmark extends SuiteSettings {
    static final int CHUNKS = PassageEmbeddingBenchmark.CHUNKS;

    private OnnxEmbedder twoThreads;
    private OnnxEmbedder oneThread;
    List<String> chunks;

    /** A session of its own per calling thread. */
    @State(Scope.Thread)
    public static class OwnSession {
        OnnxEmbedder embedder;

        @Setup
        public void setUp() {
            OnnxRuntimeGuard.shortenInformationalClassPathProperties();
            embedder = OnnxEmbedder.load(ModelDescriptor.ALL_MINILM_L6_V2_Q, 1);
        }

        @TearDown
        public void tearDown() {
            embedder.close();
        }
    }

    @Setup
    public void setUp() {
        OnnxRuntimeGuard.shortenInformationalClassPathProperties();
        twoThreads = OnnxEmbedder.load(ModelDescriptor.ALL_MINILM_L6_V2_Q, 2);
        oneThread = OnnxEmbedder.load(ModelDescriptor.ALL_MINILM_L6_V2_Q, 1);
        var chunker = twoThreads.chunker().withLeadTokens(64);
        chunks = ClinicalRecords.noteChunks(chunker, chunker::countTokens, 4_000).subList(0, CHUNKS);
    }

    @TearDown
    public void tearDown() {
        twoThreads.close();
        oneThread.close();
    }

    @Benchmark
    public float[][] oneSessionOnTwoThreads() {
        return twoThreads.embedPassages(chunks);
    }

    @Benchmark
    public float[][] oneSessionOnOneThread() {
        return oneThread.embedPassages(chunks);
    }

    @Benchmark
    @Threads(2)
    public float[][] twoSessionsOfOneThreadSideBySide(OwnSession own) {
        return own.embedder.embedPassages(chunks);
    }
}

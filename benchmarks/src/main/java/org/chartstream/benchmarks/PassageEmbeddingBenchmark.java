package org.chartstream.benchmarks;

import java.util.List;
import org.chartstream.models.ModelDescriptor;
import org.chartstream.models.OnnxEmbedder;
import org.chartstream.models.OnnxRuntimeGuard;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The ingest's embedding of a note's chunks: the default model and its int8 variant, each with one text per ONNX
 * Runtime run (the default, {@link OnnxEmbedder#DEFAULT_BATCH_SIZE}) and with sub-batches of 32 (the default until
 * session 8), on the pipeline's default 2 intra-op threads. Divide a figure by {@value #CHUNKS} for the time per chunk.
 */
public class PassageEmbeddingBenchmark extends SuiteSettings {
    /** Chunks per operation: a ~4,000-token note under the ingest's chunker, about as many as one embedding call holds at load. */
    static final int CHUNKS = 16;
    static final int THREADS = 2;
    static final int SUB_BATCH = 32;

    private OnnxEmbedder fp32OnePerRun;
    private OnnxEmbedder fp32SubBatches;
    private OnnxEmbedder int8OnePerRun;
    private OnnxEmbedder int8SubBatches;
    List<String> chunks;

    @Setup
    public void setUp() {
        OnnxRuntimeGuard.shortenInformationalClassPathProperties();
        fp32OnePerRun = OnnxEmbedder.load(ModelDescriptor.ALL_MINILM_L6_V2, THREADS);
        fp32SubBatches = OnnxEmbedder.load(ModelDescriptor.ALL_MINILM_L6_V2, THREADS, SUB_BATCH);
        int8OnePerRun = OnnxEmbedder.load(ModelDescriptor.ALL_MINILM_L6_V2_Q, THREADS);
        int8SubBatches = OnnxEmbedder.load(ModelDescriptor.ALL_MINILM_L6_V2_Q, THREADS, SUB_BATCH);
        var chunker = fp32OnePerRun.chunker().withLeadTokens(64);
        chunks = ClinicalRecords.noteChunks(chunker, chunker::countTokens, 4_000).subList(0, CHUNKS);
    }

    @TearDown
    public void tearDown() {
        fp32OnePerRun.close();
        fp32SubBatches.close();
        int8OnePerRun.close();
        int8SubBatches.close();
    }

    @Benchmark
    public float[][] fp32OneTextPerRun() {
        return fp32OnePerRun.embedPassages(chunks);
    }

    @Benchmark
    public float[][] fp32SubBatchesOf32() {
        return fp32SubBatches.embedPassages(chunks);
    }

    @Benchmark
    public float[][] int8OneTextPerRun() {
        return int8OnePerRun.embedPassages(chunks);
    }

    @Benchmark
    public float[][] int8SubBatchesOf32() {
        return int8SubBatches.embedPassages(chunks);
    }
}

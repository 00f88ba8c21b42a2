package org.chartstream.benchmarks;

import java.util.List;
import org.chartstream.models.ModelDescriptor;
import org.chartstream.models.OnnxEmbedder;
import org.chartstream.models.OnnxRuntimeGuard;
import org.chartstream.models.TokenChunker;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The ingest's cost of one long note under each selectable model: the note is chunked as the ingest chunks it (the
 * model's own window, 64 lead tokens) and every chunk embedded with the ingest's defaults (one text per run, 2 intra-op
 * threads). The note's text is the same for every model; the models with a 512-token window cut it into fewer, longer
 * chunks, so compare them by time per note (rows/s) and read chunks/s as {@code chunksPerNote / time}. The chunk count
 * per model is printed at set-up.
 */
public class ModelThroughputBenchmark extends SuiteSettings {
    static final int NOTE_TOKENS = 4_000;
    static final int THREADS = 2;

    @Param({"all-minilm-l6-v2", "all-minilm-l6-v2-q", "e5-small-v2", "e5-small-v2-q", "bge-small-en-v1.5",
            "bge-small-en-v1.5-q"})
    public String model;

    private OnnxEmbedder embedder;
    List<String> chunks;

    @Setup
    public void setUp() {
        OnnxRuntimeGuard.shortenInformationalClassPathProperties();
        embedder = OnnxEmbedder.load(ModelDescriptor.byId(model), THREADS);
        TokenChunker chunker = embedder.chunker().withLeadTokens(64);
        // The note's text must not depend on the model: its length is counted with MiniLM's word pieces for every model.
        try (OnnxEmbedder reference = OnnxEmbedder.load(ModelDescriptor.ALL_MINILM_L6_V2_Q, 1)) {
            chunks = ClinicalRecords.noteChunks(chunker, reference.chunker()::countTokens, NOTE_TOKENS);
        }
        System.out.println("model " + model + ": " + chunks.size() + " chunks per note");
    }

    @TearDown
    public void tearDown() {
        embedder.close();
    }

    @Benchmark
    public float[][] embedOneNote() {
        return embedder.embedPassages(chunks);
    }
}

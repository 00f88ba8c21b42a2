package org.chartstream.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.chartstream.models.ModelDescriptor;
import org.chartstream.models.OnnxEmbedder;
import org.chartstream.models.OnnxRuntimeGuard;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
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
 *
 * <p>{@code texts}: {@code note-chunks} are {@code CHUNKS} chunks of about 256 tokens of one long note;
 * {@code structured-rows} are {@code CHUNKS} one-chunk rows of the structured tables (a condition, a medication or
 * an encounter under its header), which are most of what {@code bench scaleout} embeds. A short text
 * does little arithmetic per weight the model reads, so whether two sessions side by side slow each other down
 * (shared cache, memory bandwidth) can differ between the two.
 */
public class ModelCoresBenchmark extends SuiteSettings {
    static final int CHUNKS = PassageEmbeddingBenchmark.CHUNKS;

    @Param({"note-chunks", "structured-rows"})
    public String texts;

    /** Texts per ONNX Runtime run ({@code OnnxEmbedder}'s sub-batch; the pipeline runs one text per run). */
    @Param({"1"})
    public int batch;

    private OnnxEmbedder twoThreads;
    private OnnxEmbedder oneThread;
    List<String> chunks;

    /** A session of its own per calling thread. */
    @State(Scope.Thread)
    public static class OwnSession {
        OnnxEmbedder embedder;

        @Setup
        public void setUp(ModelCoresBenchmark settings) {
            OnnxRuntimeGuard.shortenInformationalClassPathProperties();
            embedder = OnnxEmbedder.load(ModelDescriptor.ALL_MINILM_L6_V2_Q, 1, settings.batch);
        }

        @TearDown
        public void tearDown() {
            embedder.close();
        }
    }

    @Setup
    public void setUp() {
        OnnxRuntimeGuard.shortenInformationalClassPathProperties();
        twoThreads = OnnxEmbedder.load(ModelDescriptor.ALL_MINILM_L6_V2_Q, 2, batch);
        oneThread = OnnxEmbedder.load(ModelDescriptor.ALL_MINILM_L6_V2_Q, 1, batch);
        var chunker = twoThreads.chunker().withLeadTokens(64);
        chunks = switch (texts) {
            case "note-chunks" -> ClinicalRecords.noteChunks(chunker, chunker::countTokens, 4_000).subList(0, CHUNKS);
            case "structured-rows" -> structuredRows();
            default -> throw new IllegalArgumentException("texts must be note-chunks or structured-rows, got " + texts);
        };
    }

    private static List<String> structuredRows() {
        Random random = new Random(5);
        String[] tables = {"conditions", "medications", "encounters"};
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < CHUNKS; i++) {
            String table = tables[i % tables.length];
            ClinicalRecords.Patient p = ClinicalRecords.pick(random, ClinicalRecords.PATIENTS);
            rows.add(ClinicalRecords.header(table, p) + "\n" + ClinicalRecords.structuredBody(random, table));
        }
        return List.copyOf(rows);
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

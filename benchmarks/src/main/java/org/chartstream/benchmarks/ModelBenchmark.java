package org.chartstream.benchmarks;

import java.util.List;
import java.util.Random;
import org.chartstream.models.ModelDescriptor;
import org.chartstream.models.OnnxEmbedder;
import org.chartstream.models.OnnxRuntimeGuard;
import org.chartstream.models.TokenChunker;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The embedding model: the raw ONNX embedding of one short query (the {@linkplain RatioReport baseline} every other
 * figure is divided by) and the ingest's chunking of a long note with the model's tokenizer.
 */
public class ModelBenchmark extends SuiteSettings {
    static final String SHORT_QUERY = "metformin dose for type 2 diabetes";
    static final int NOTE_TOKENS = 2000;

    private OnnxEmbedder embedder;
    private TokenChunker chunker;
    String noteHeader;
    String noteBody;

    @Setup
    public void setUp() {
        OnnxRuntimeGuard.shortenInformationalClassPathProperties();
        embedder = OnnxEmbedder.load(ModelDescriptor.ALL_MINILM_L6_V2, 1);
        chunker = embedder.chunker().withLeadTokens(64); // the ingest's default chunker (chunk.lead-tokens = 64)
        Random random = new Random(7);
        ClinicalRecords.Patient patient = ClinicalRecords.PATIENTS.get(0);
        noteHeader = ClinicalRecords.header("clinical_notes", patient);
        noteBody = ClinicalRecords.noteBody(random, patient, NOTE_TOKENS, chunker::countTokens);
    }

    @TearDown
    public void tearDown() {
        embedder.close();
    }

    /** The baseline: one short query through the tokenizer and the ONNX session (one intra-op thread), pooled. */
    @Benchmark
    public float[] embedQueryBaseline() {
        return embedder.embedQuery(SHORT_QUERY);
    }

    /** A ~{@value #NOTE_TOKENS}-token note chunked under its header, as the ingest chunks a row. */
    @Benchmark
    public List<String> chunkNote() {
        return chunker.chunkUnderHeader(noteHeader, noteBody);
    }

    int noteTokens() {
        return chunker.countTokens(noteBody);
    }

    int windowTokens() {
        return chunker.windowTokens();
    }
}

package org.chartstream.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.models.ModelDescriptor;
import org.chartstream.models.OnnxEmbedder;
import org.chartstream.models.OnnxRuntimeGuard;
import org.chartstream.models.TokenChunker;
import org.chartstream.retrieval.context.ContextPassage;
import org.chartstream.retrieval.embed.QueryEmbedder;
import org.chartstream.retrieval.generate.EmbeddingSentenceScorer;
import org.chartstream.retrieval.generate.ExtractiveGenerator;
import org.chartstream.retrieval.generate.GenerationResult;
import org.chartstream.retrieval.generate.ScoringShortlist;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The embedding model: the raw ONNX embedding of one short query (the {@linkplain RatioReport baseline} every other
 * figure is divided by), the ingest's chunking of a long note with the model's tokenizer, and the extractive answer
 * (no generation model configured) over a default-sized context, which embeds the cited records' sentences: with
 * the scoring shortlist and, for comparison in the same run, with every sentence scored whole.
 */
public class ModelBenchmark extends SuiteSettings {
    static final String SHORT_QUERY = "metformin dose for type 2 diabetes";
    static final int NOTE_TOKENS = 2000;
    /** The default context: six records, four of them notes cut to their share of the 2,400-token budget. */
    static final int CONTEXT_NOTES = 4;
    static final int CONTEXT_NOTE_TOKENS = 400;
    static final String ANSWER_QUESTION = "What is the plan for her blood pressure medication?";

    private OnnxEmbedder embedder;
    private TokenChunker chunker;
    String noteHeader;
    String noteBody;
    List<ContextPassage> context;
    private ExtractiveGenerator shortlisted;
    private ExtractiveGenerator everyPiece;

    @Setup
    public void setUp() {
        OnnxRuntimeGuard.shortenInformationalClassPathProperties();
        embedder = OnnxEmbedder.load(ModelDescriptor.ALL_MINILM_L6_V2, 1);
        chunker = embedder.chunker().withLeadTokens(64); // the ingest's default chunker (chunk.lead-tokens = 64)
        Random random = new Random(7);
        ClinicalRecords.Patient patient = ClinicalRecords.PATIENTS.get(0);
        noteHeader = ClinicalRecords.header("clinical_notes", patient);
        noteBody = ClinicalRecords.noteBody(random, patient, NOTE_TOKENS, chunker::countTokens);
        context = context(random);
        EmbeddingSentenceScorer scorer = new EmbeddingSentenceScorer(QueryEmbedder.of(embedder));
        shortlisted = new ExtractiveGenerator(scorer, 600, ScoringShortlist.DEFAULT);
        everyPiece = new ExtractiveGenerator(scorer, 600, ScoringShortlist.EVERY_PIECE);
    }

    private List<ContextPassage> context(Random random) {
        List<ContextPassage> passages = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            ClinicalRecords.Patient p = ClinicalRecords.pick(random, ClinicalRecords.PATIENTS);
            String table = i < CONTEXT_NOTES ? "clinical_notes" : "medications";
            String text = ClinicalRecords.header(table, p) + "\n" + (i < CONTEXT_NOTES
                    ? ClinicalRecords.noteBody(random, p, CONTEXT_NOTE_TOKENS, chunker::countTokens)
                    : ClinicalRecords.structuredBody(random, table));
            RowRef row = new RowRef("ehr", table, Integer.toString(i));
            StoredChunk chunk = new StoredChunk(StoredChunk.chunkId(row, 0, 1), row, 0, 1, 1, text, null, p.number(), null,
                    0L, ModelDescriptor.ALL_MINILM_L6_V2.id());
            passages.add(new ContextPassage(i + 1, chunk, List.of(chunk), text, chunker.countTokens(text), false, 1.0 - i * 0.1));
        }
        return List.copyOf(passages);
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

    /** The extractive answer as shipped: each record's shortlist of pieces embedded with the question. */
    @Benchmark
    public GenerationResult extractiveAnswerShortlisted() {
        return shortlisted.generate(ANSWER_QUESTION, context, t -> { });
    }

    /** The extractive answer with every piece of every record embedded whole (before the shortlist). */
    @Benchmark
    public GenerationResult extractiveAnswerEveryPiece() {
        return everyPiece.generate(ANSWER_QUESTION, context, t -> { });
    }

    int noteTokens() {
        return chunker.countTokens(noteBody);
    }

    int windowTokens() {
        return chunker.windowTokens();
    }
}

package org.chartstream.benchmarks;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.SearchHit;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.models.ModelDescriptor;
import org.chartstream.models.ModelTokenizer;
import org.chartstream.models.TokenChunker;
import org.chartstream.retrieval.Candidate;
import org.chartstream.retrieval.context.BudgetedContextBuilder;
import org.chartstream.retrieval.context.ContextBudget;
import org.chartstream.retrieval.context.ContextPassage;
import org.chartstream.retrieval.dedupe.RowDedupe;
import org.chartstream.retrieval.fusion.Fusion;
import org.chartstream.retrieval.fusion.NormalizedScoreFusion;
import org.chartstream.retrieval.fusion.ReciprocalRankFusion;
import org.chartstream.retrieval.gate.QuestionAnchors;
import org.chartstream.retrieval.gate.TailTrim;
import org.chartstream.retrieval.rewrite.ExactTerms;
import org.chartstream.retrieval.search.SideResults;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The query path's pure stages between search and generation (QueryPipeline: row dedupe, fusion, tail trim, gate
 * anchors, context) and the lexical rewrite, on one question's worth of realistic input: one search side pair of
 * {@value #PER_SIDE} hits each over note rows of several chunks (chunked by the ingest's own chunker) and one-chunk
 * structured rows, top_k = {@value #TOP_K}.
 */
public class QueryPathBenchmark extends SuiteSettings {
    static final int PER_SIDE = 60;
    static final int TOP_K = 6;
    static final int NOTE_ROWS = 20;
    static final int NOTE_TOKENS = 550;
    static final int STRUCTURED_ROWS = 30;
    /** The bi-encoder gate threshold (docs/EVALUATION.md). */
    static final double GATE_THRESHOLD = 0.43;
    /** Names a patient and a code that the records hold (Martha Collins, E11.9) and a code none holds (I25.10). */
    static final String QUESTION = "Has Martha Collins been treated for COPD or E11.9 since the I25.10 finding,"
            + " and which inhaler was she prescribed?";
    private static final long GENERATION = 7;
    private static final double[] RERANK_SCORES = {0.71, 0.58, 0.44, 0.30, 0.19, 0.12};

    private ModelTokenizer tokenizer;
    List<StoredChunk> chunks;
    Map<RowRef, List<StoredChunk>> rows;
    List<SideResults> sides;
    List<Candidate> vectorChunks;
    List<Candidate> lexicalChunks;
    List<Candidate> reranked;
    List<QuestionAnchors.Anchor> anchors;
    List<String> topTexts;
    BudgetedContextBuilder contextBuilder;

    @Setup
    public void setUp() {
        tokenizer = ModelTokenizer.load(ModelDescriptor.ALL_MINILM_L6_V2);
        TokenChunker chunker = TokenChunker.forModel(tokenizer, ModelDescriptor.ALL_MINILM_L6_V2).withLeadTokens(64);
        Random random = new Random(42);
        chunks = new ArrayList<>();
        rows = new HashMap<>();
        for (int i = 0; i < NOTE_ROWS + STRUCTURED_ROWS; i++) {
            ClinicalRecords.Patient patient = ClinicalRecords.pick(random, ClinicalRecords.PATIENTS);
            String table = i < NOTE_ROWS ? "clinical_notes" : List.of("conditions", "medications", "encounters").get(i % 3);
            String header = ClinicalRecords.header(table, patient);
            List<String> texts = i < NOTE_ROWS
                    ? chunker.chunkUnderHeader(header, ClinicalRecords.noteBody(random, patient, NOTE_TOKENS, tokenizer::countTokens))
                    : List.of(header + "\n" + ClinicalRecords.structuredBody(random, table));
            addRow(new RowRef("ehr", table, Integer.toString(1000 + i)), patient, texts);
        }
        List<SearchHit> vector = side(random, 0.78, 0.004);
        List<SearchHit> lexical = side(random, 21.4, 0.3);
        sides = List.of(new SideResults(vector, lexical));
        vectorChunks = vector.stream().map(h -> Candidate.vectorHit(h.chunk(), h.score(), h.rank())).toList();
        lexicalChunks = lexical.stream().map(h -> Candidate.lexicalHit(h.chunk(), h.score(), h.rank())).toList();

        List<Candidate> fusedRows = rowFusion();
        reranked = new ArrayList<>();
        for (int i = 0; i < TOP_K; i++) {
            reranked.add(fusedRows.get(i).withRerankScore(RERANK_SCORES[i]));
        }
        topTexts = reranked.stream().map(c -> c.chunk().text()).toList();
        anchors = QuestionAnchors.of(QUESTION);
        contextBuilder = new BudgetedContextBuilder(tokenizer::countTokens, ContextBudget.defaults(), rows::get);
    }

    @TearDown
    public void tearDown() {
        tokenizer.close();
    }

    private void addRow(RowRef row, ClinicalRecords.Patient patient, List<String> texts) {
        List<StoredChunk> rowChunks = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            rowChunks.add(new StoredChunk(StoredChunk.chunkId(row, i, GENERATION), row, i, texts.size(), GENERATION,
                    texts.get(i), null, patient.number(), "0/" + (24_000_000 + chunks.size() * 512), 1_764_000_000_000L,
                    ModelDescriptor.ALL_MINILM_L6_V2.id()));
        }
        chunks.addAll(rowChunks);
        rows.put(row, List.copyOf(rowChunks));
    }

    /** {@value #PER_SIDE} chunks in a random order of their own, scores falling from {@code best} by about {@code step}. */
    private List<SearchHit> side(Random random, double best, double step) {
        List<StoredChunk> order = new ArrayList<>(chunks);
        Collections.shuffle(order, random);
        List<SearchHit> hits = new ArrayList<>(PER_SIDE);
        double score = best;
        for (int i = 0; i < PER_SIDE; i++) {
            hits.add(new SearchHit(order.get(i), score, i + 1));
            score -= step * (0.5 + random.nextDouble());
        }
        return hits;
    }

    /** Min-max score fusion of the two chunk lists. */
    @Benchmark
    public List<Candidate> normalizedScoreFusion() {
        return NormalizedScoreFusion.fuse(vectorChunks, lexicalChunks, NormalizedScoreFusion.DEFAULT_VECTOR_WEIGHT);
    }

    /** Reciprocal rank fusion of the two chunk rankings. */
    @Benchmark
    public List<Candidate> reciprocalRankFusion() {
        return ReciprocalRankFusion.fuse(vectorChunks, lexicalChunks, ReciprocalRankFusion.DEFAULT_K);
    }

    /** Each side cut to its best hit per row, one chunk standing for each row. */
    @Benchmark
    public RowDedupe.PerRow rowDedupe() {
        return RowDedupe.perRow(sides);
    }

    /** What the pipeline's fuse step runs: the row dedupe, then score fusion. */
    @Benchmark
    public List<Candidate> rowFusion() {
        RowDedupe.PerRow perRow = RowDedupe.perRow(sides);
        return Fusion.normalisedScore(NormalizedScoreFusion.DEFAULT_VECTOR_WEIGHT).fuse(perRow.vector(), perRow.lexical());
    }

    @Benchmark
    public List<Candidate> tailTrim() {
        return TailTrim.trim(reranked, GATE_THRESHOLD);
    }

    @Benchmark
    public List<QuestionAnchors.Anchor> questionAnchorsOf() {
        return QuestionAnchors.of(QUESTION);
    }

    /** The question's anchors checked against the top-k passages' texts. */
    @Benchmark
    public List<QuestionAnchors.Anchor> questionAnchorsUnmentioned() {
        return QuestionAnchors.unmentioned(anchors, topTexts);
    }

    /** Default budget, model-tokenizer counts, parent-row expansion over the rows' sibling chunks. */
    @Benchmark
    public List<ContextPassage> budgetedContext() {
        return contextBuilder.build(reranked);
    }

    @Benchmark
    public String exactTermsLexicalQuery() {
        return ExactTerms.lexicalQuery(QUESTION);
    }
}

package org.chartstream.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.chartstream.core.store.RowRef;
import org.chartstream.retrieval.Candidate;
import org.chartstream.retrieval.context.ContextPassage;
import org.chartstream.retrieval.dedupe.RowDedupe;
import org.chartstream.retrieval.gate.QuestionAnchors;
import org.chartstream.retrieval.generate.GenerationResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Calls every benchmark once on its set-up state, outside JMH, so a broken benchmark (or one whose input no longer
 * exercises its stage) fails the build. No timing here: figures come from {@link RatioReport}.
 */
class BenchmarksTest {
    private static final QueryPathBenchmark query = new QueryPathBenchmark();
    private static final ModelBenchmark model = new ModelBenchmark();
    private static final PassageEmbeddingBenchmark passages = new PassageEmbeddingBenchmark();

    @BeforeAll
    static void setUp() {
        query.setUp();
        model.setUp();
        passages.setUp();
    }

    @AfterAll
    static void tearDown() {
        query.tearDown();
        model.tearDown();
        passages.tearDown();
    }

    @Test
    void passageEmbeddingRunsEveryVariantOnFullChunksAndOnePerRunMatchesSubBatches() {
        assertThat(passages.chunks).hasSize(PassageEmbeddingBenchmark.CHUNKS).allSatisfy(c -> assertThat(c).startsWith("record: clinical notes"));
        float[][] onePerRun = passages.fp32OneTextPerRun();
        float[][] subBatches = passages.fp32SubBatchesOf32();
        assertThat(onePerRun).hasNumberOfRows(PassageEmbeddingBenchmark.CHUNKS);
        for (int i = 0; i < onePerRun.length; i++) {
            double dot = 0;
            for (int j = 0; j < onePerRun[i].length; j++) {
                dot += onePerRun[i][j] * subBatches[i][j];
            }
            assertThat(dot).as("chunk %d", i).isGreaterThan(0.9999);
        }
        assertThat(passages.int8OneTextPerRun()).hasNumberOfRows(PassageEmbeddingBenchmark.CHUNKS);
        assertThat(passages.int8SubBatchesOf32()).hasNumberOfRows(PassageEmbeddingBenchmark.CHUNKS);
    }

    @Test
    void inputsHaveTheRealisticShape() {
        assertThat(query.sides).singleElement().satisfies(side -> {
            assertThat(side.vector()).hasSize(QueryPathBenchmark.PER_SIDE);
            assertThat(side.lexical()).hasSize(QueryPathBenchmark.PER_SIDE);
        });
        assertThat(query.rows).hasSize(QueryPathBenchmark.NOTE_ROWS + QueryPathBenchmark.STRUCTURED_ROWS);
        assertThat(query.rows.values()).filteredOn(chunks -> chunks.size() >= 3).hasSizeGreaterThanOrEqualTo(QueryPathBenchmark.NOTE_ROWS);
        assertThat(query.chunks.get(0).text()).startsWith("record: clinical notes\npatient: ").contains("CHIEF COMPLAINT");
        assertThat(model.noteTokens()).isBetween(ModelBenchmark.NOTE_TOKENS, ModelBenchmark.NOTE_TOKENS + 200);
    }

    @Test
    void chunkLevelFusionsCoverBothSides() {
        int union = union().size();
        assertThat(union).isGreaterThan(QueryPathBenchmark.PER_SIDE);
        assertThat(query.normalizedScoreFusion()).hasSize(union)
                .anySatisfy(c -> assertThat(c.vectorRank() > 0 && c.lexicalRank() > 0).isTrue());
        assertThat(query.reciprocalRankFusion()).hasSize(union);
    }

    @Test
    void rowDedupeAndFusionKeepOneCandidatePerRow() {
        Set<RowRef> rowsHit = new HashSet<>();
        query.sides.get(0).vector().forEach(h -> rowsHit.add(h.chunk().row()));
        query.sides.get(0).lexical().forEach(h -> rowsHit.add(h.chunk().row()));
        RowDedupe.PerRow perRow = query.rowDedupe();
        for (List<Candidate> side : List.of(perRow.vector().get(0), perRow.lexical().get(0))) {
            assertThat(side).hasSizeLessThan(QueryPathBenchmark.PER_SIDE);
            assertThat(side.stream().map(c -> c.chunk().row())).doesNotHaveDuplicates();
        }
        List<Candidate> fused = query.rowFusion();
        assertThat(fused).hasSize(rowsHit.size()).hasSizeLessThan(query.normalizedScoreFusion().size());
        assertThat(fused.stream().map(c -> c.chunk().row())).doesNotHaveDuplicates();
    }

    @Test
    void gateStagesFindTheirAnchorsAndTrimTheTail() {
        assertThat(query.tailTrim()).hasSize(4); // scores 0.71 .. 0.12 against half of 0.43
        assertThat(query.questionAnchorsOf()).extracting(QuestionAnchors.Anchor::text)
                .containsExactly("E11.9", "I25.10", "Martha Collins");
        assertThat(query.questionAnchorsUnmentioned()).extracting(QuestionAnchors.Anchor::text).contains("I25.10")
                .doesNotContain("Martha Collins");
        assertThat(query.exactTermsLexicalQuery()).endsWith("prescribed? \"COPD\" \"E11.9\" \"I25.10\"");
    }

    @Test
    void contextExpandsRowsWithinTheBudget() {
        List<ContextPassage> context = query.budgetedContext();
        assertThat(context).hasSizeBetween(4, QueryPathBenchmark.TOP_K);
        assertThat(context).anySatisfy(p -> assertThat(p.chunks()).hasSizeGreaterThan(1));
        assertThat(context.stream().mapToInt(ContextPassage::tokens).sum()).isLessThanOrEqualTo(2400);
    }

    @Test
    void modelBenchmarksEmbedAndChunk() {
        float[] vector = model.embedQueryBaseline();
        assertThat(vector).hasSize(384);
        double norm = 0;
        for (float v : vector) {
            norm += v * v;
        }
        assertThat(Math.sqrt(norm)).isCloseTo(1.0, within(1e-3));
        List<String> chunks = model.chunkNote();
        assertThat(chunks).hasSizeGreaterThanOrEqualTo(ModelBenchmark.NOTE_TOKENS / model.windowTokens())
                .allSatisfy(c -> assertThat(c).startsWith(model.noteHeader));
    }

    @Test
    void extractiveAnswersQuoteTheContextEitherWay() {
        assertThat(model.context).hasSize(6);
        assertThat(model.context.stream().mapToInt(ContextPassage::tokens).sum()).isBetween(1600, 2400);
        for (GenerationResult answer : List.of(model.extractiveAnswerShortlisted(), model.extractiveAnswerEveryPiece())) {
            assertThat(answer.outcome()).isEqualTo(GenerationResult.Outcome.EXTRACTIVE);
            assertThat(answer.citations().cited()).hasSize(6);
        }
    }

    @Test
    void reportDividesByTheBaseline() {
        List<RatioReport.Row> rows = List.of(new RatioReport.Row("ModelBenchmark.embedQueryBaseline", 1000, 50, 1),
                new RatioReport.Row("QueryPathBenchmark.tailTrim", 0.0213, 0.001, 0.0213 / 1000));
        assertThat(RatioReport.table(rows)).contains("| QueryPathBenchmark.tailTrim | 0.0213 ± 0.00100 | 0.0000213 |");
        assertThat(RatioReport.number(1234.4)).isEqualTo("1234");
    }

    /** Chunk ids either side returned. */
    private static Set<String> union() {
        Set<String> ids = new HashSet<>();
        query.sides.get(0).vector().forEach(h -> ids.add(h.chunk().chunkId()));
        query.sides.get(0).lexical().forEach(h -> ids.add(h.chunk().chunkId()));
        return ids;
    }
}

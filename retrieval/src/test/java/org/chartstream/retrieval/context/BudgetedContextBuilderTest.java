package org.chartstream.retrieval.context;

import static org.assertj.core.api.Assertions.assertThat;
import static org.chartstream.retrieval.context.TestChunks.WORDS;

import java.util.ArrayList;
import java.util.List;
import org.chartstream.core.store.ChunkFixture;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.retrieval.Candidate;
import org.chartstream.retrieval.TestCandidates;
import org.junit.jupiter.api.Test;

/** Counts whitespace words as tokens so every budget in these tests can be checked by hand. */
class BudgetedContextBuilderTest {
    private static final String HEADER = "record: notes";
    /** Five chunks of 5 body words each; with the 2-word header a chunk is 7 tokens, n rejoined chunks 2 + 5n. */
    private static final List<StoredChunk> LONG_ROW = TestChunks.row("long", HEADER, List.of(
            "a1 a2 a3 a4 a5", "b1 b2 b3 b4 b5", "c1 c2 c3 c4 c5", "d1 d2 d3 d4 d5", "e1 e2 e3 e4 e5"));

    private static Candidate gated(StoredChunk chunk, double rerankScore) {
        return TestCandidates.reranked(chunk, rerankScore);
    }

    private static List<Candidate> singleChunkRows(int n) {
        List<Candidate> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(gated(TestChunks.row("r" + i, HEADER, List.of("w1 w2 w3")).get(0), 1.0 - i * 0.1));
        }
        return out;
    }

    @Test
    void atMostSixPassagesNumberedInRankOrder() {
        List<ContextPassage> passages = new BudgetedContextBuilder(WORDS, ContextBudget.defaults(), SiblingChunks.NONE)
                .build(singleChunkRows(9));

        assertThat(passages).hasSize(6);
        assertThat(passages).extracting(ContextPassage::index).containsExactly(1, 2, 3, 4, 5, 6);
        assertThat(passages).extracting(p -> p.anchor().row().rowKey()).containsExactly("r0", "r1", "r2", "r3", "r4", "r5");
        assertThat(passages.get(0).text()).isEqualTo("record: notes\nw1 w2 w3");
        assertThat(passages.get(0).tokens()).isEqualTo(5);
        assertThat(passages.get(0).score()).isEqualTo(1.0);
    }

    @Test
    void aRequestsTopKIsHonouredUpToItsMaximumWithTheTotalBudgetSharedAmongThePassages() {
        // rows of 200 tokens: with the default 512 per row, 2,400 in total would stop at 12 of them
        List<Candidate> rows = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            rows.add(gated(TestChunks.row("big" + i, HEADER, List.of("w ".repeat(198).strip())).get(0), 1.0 - i * 0.01));
        }
        BudgetedContextBuilder builder = new BudgetedContextBuilder(WORDS, ContextBudget.defaults(), SiblingChunks.NONE);

        List<ContextPassage> thirty = builder.build(rows, 30);
        assertThat(thirty).hasSize(30);
        assertThat(thirty).allSatisfy(p -> assertThat(p.tokens()).isLessThanOrEqualTo(2400 / 30));
        assertThat(thirty.stream().mapToInt(ContextPassage::tokens).sum()).isLessThanOrEqualTo(2400);
        assertThat(builder.build(rows, 10)).hasSize(10);
        assertThat(builder.build(rows, 3)).hasSize(3).allSatisfy(p -> assertThat(p.tokens()).isEqualTo(200));
        assertThat(ContextBudget.defaults().forPassages(6)).isEqualTo(new ContextBudget(6, 400, 2400, 32));
    }

    @Test
    void expandsToNeighbouringChunksOnBothSidesWithinTheRowBudget() {
        ContextBudget budget = new ContextBudget(6, 17, 1000, 1);
        List<ContextPassage> passages = new BudgetedContextBuilder(WORDS, budget, row -> LONG_ROW)
                .build(List.of(gated(LONG_ROW.get(2), 0.9)));

        ContextPassage p = passages.get(0);
        assertThat(p.chunks()).extracting(StoredChunk::chunkIndex).containsExactly(1, 2, 3);
        assertThat(p.text()).isEqualTo("record: notes\nb1 b2 b3 b4 b5\nc1 c2 c3 c4 c5\nd1 d2 d3 d4 d5");
        assertThat(p.tokens()).isEqualTo(17);
        assertThat(p.truncated()).isFalse();
        assertThat(p.anchor()).isEqualTo(LONG_ROW.get(2));
    }

    @Test
    void theNextChunkIsTriedBeforeThePreviousOne() {
        ContextBudget budget = new ContextBudget(6, 12, 1000, 1);
        ContextPassage p = new BudgetedContextBuilder(WORDS, budget, row -> LONG_ROW)
                .build(List.of(gated(LONG_ROW.get(2), 0.9))).get(0);

        assertThat(p.chunks()).extracting(StoredChunk::chunkIndex).containsExactly(2, 3);
        assertThat(p.tokens()).isEqualTo(12);
    }

    @Test
    void expansionStopsAtTheRowsEnds() {
        List<ContextPassage> passages = new BudgetedContextBuilder(WORDS, ContextBudget.defaults(), row -> LONG_ROW)
                .build(List.of(gated(LONG_ROW.get(4), 0.9)));

        assertThat(passages.get(0).chunks()).hasSize(5);
        assertThat(passages.get(0).tokens()).isEqualTo(27);
    }

    @Test
    void theTotalBudgetShrinksLaterRowsAndEndsTheContext() {
        ContextBudget budget = new ContextBudget(6, 12, 30, 6);
        List<StoredChunk> second = TestChunks.row("second", HEADER, List.of("x1 x2 x3 x4 x5", "y1 y2 y3 y4 y5", "z1 z2 z3 z4 z5"));
        List<Candidate> candidates = List.of(gated(LONG_ROW.get(0), 0.9), gated(second.get(1), 0.8),
                gated(TestChunks.row("third", HEADER, List.of("t1 t2 t3 t4 t5 t6 t7 t8 t9 t10")).get(0), 0.7),
                gated(TestChunks.row("fourth", HEADER, List.of("f1")).get(0), 0.6));

        List<ContextPassage> passages = new BudgetedContextBuilder(WORDS, budget,
                row -> row.rowKey().equals("long") ? LONG_ROW : second).build(candidates);

        assertThat(passages).extracting(ContextPassage::tokens).containsExactly(12, 12, 6);
        ContextPassage third = passages.get(2);
        assertThat(third.truncated()).isTrue();
        assertThat(third.text()).isEqualTo("record: notes\nt1 t2 t3 t4");
        assertThat(passages.stream().mapToInt(ContextPassage::tokens).sum()).isLessThanOrEqualTo(30);
    }

    @Test
    void aRetrievedChunkLargerThanTheRowBudgetIsCutAtAWord() {
        ContextBudget budget = new ContextBudget(6, 4, 100, 1);

        ContextPassage p = new BudgetedContextBuilder(WORDS, budget, row -> LONG_ROW)
                .build(List.of(gated(LONG_ROW.get(1), 0.9))).get(0);

        assertThat(p.text()).isEqualTo("record: notes\nb1 b2");
        assertThat(p.tokens()).isEqualTo(4);
        assertThat(p.truncated()).isTrue();
        assertThat(p.chunks()).containsExactly(LONG_ROW.get(1));
    }

    @Test
    void aRowThatChangedSinceTheSearchIsNotExpanded() {
        List<StoredChunk> newVersion = TestChunks.row("long", HEADER, List.of("new1", "new2"));
        StoredChunk retrieved = ChunkFixture.of(LONG_ROW.get(1).row()).index(1, 5).generation(0).text(LONG_ROW.get(1).text())
                .build();

        ContextPassage p = new BudgetedContextBuilder(WORDS, ContextBudget.defaults(), row -> newVersion)
                .build(List.of(gated(retrieved, 0.9))).get(0);

        assertThat(p.chunks()).containsExactly(retrieved);
        assertThat(p.text()).isEqualTo(retrieved.text());
    }

    @Test
    void printsWithoutRecordText() {
        ContextPassage p = new BudgetedContextBuilder(WORDS, ContextBudget.defaults(), SiblingChunks.NONE)
                .build(List.of(gated(LONG_ROW.get(0), 0.9))).get(0);

        assertThat(p.toString()).doesNotContain("a1").contains(LONG_ROW.get(0).chunkId());
    }
}

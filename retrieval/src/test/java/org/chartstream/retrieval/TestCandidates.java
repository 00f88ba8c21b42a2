package org.chartstream.retrieval;

import java.util.ArrayList;
import java.util.List;
import org.chartstream.core.store.ChunkFixture;
import org.chartstream.core.store.StoredChunk;

/** Candidates of one-chunk rows of {@code ehr:notes} (built by {@link ChunkFixture}), as the stages pass them on. */
public final class TestCandidates {
    private TestCandidates() {
    }

    /** The one chunk of row {@code rowKey}; its text is {@code text of ehr:notes:<rowKey>}. */
    public static StoredChunk chunk(String rowKey) {
        return ChunkFixture.of("ehr", "notes", rowKey).build();
    }

    /** A vector side's list: one candidate per row key, best first, with these cosines. */
    public static List<Candidate> vectorList(List<String> rowKeys, double... scores) {
        List<Candidate> list = new ArrayList<>();
        for (int i = 0; i < rowKeys.size(); i++) {
            list.add(Candidate.vectorHit(chunk(rowKeys.get(i)), scores[i], i + 1));
        }
        return list;
    }

    /** A lexical side's list: one candidate per row key, best first, with these BM25 scores. */
    public static List<Candidate> lexicalList(List<String> rowKeys, double... scores) {
        List<Candidate> list = new ArrayList<>();
        for (int i = 0; i < rowKeys.size(); i++) {
            list.add(Candidate.lexicalHit(chunk(rowKeys.get(i)), scores[i], i + 1));
        }
        return list;
    }

    /** A fused candidate (found first by the vector side) at {@code fusedRank} with {@code fusedScore}. */
    public static Candidate fused(StoredChunk chunk, double fusedScore, int fusedRank) {
        return Candidate.vectorHit(chunk, 0.5, 1).withFused(fusedScore, fusedRank);
    }

    /** A candidate the rerank stage gave {@code rerankScore}. */
    public static Candidate reranked(StoredChunk chunk, double rerankScore) {
        return fused(chunk, 0.5, 1).withRerankScore(rerankScore);
    }

    /** The row key of the candidate's chunk. */
    public static String rowKey(Candidate c) {
        return c.chunk().row().rowKey();
    }
}

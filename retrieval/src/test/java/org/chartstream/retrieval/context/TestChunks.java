package org.chartstream.retrieval.context;

import java.util.ArrayList;
import java.util.List;
import org.chartstream.core.model.TokenCounter;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.StoredChunk;

/** Chunks of one row shaped like the ingest's: shared header lines, then a body piece. */
final class TestChunks {
    static final TokenCounter WORDS = text -> text.isBlank() ? 0 : text.strip().split("\\s+").length;

    private TestChunks() {
    }

    static List<StoredChunk> row(String rowKey, String header, List<String> pieces) {
        RowRef row = new RowRef("clinic", "notes", rowKey);
        List<StoredChunk> chunks = new ArrayList<>();
        for (int i = 0; i < pieces.size(); i++) {
            chunks.add(new StoredChunk(StoredChunk.chunkId(row, i, 1), row, i, pieces.size(), 1, header + "\n" + pieces.get(i),
                    null, "p1", "lsn:" + i, 0L, "test-model"));
        }
        return chunks;
    }
}

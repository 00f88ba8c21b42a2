package org.chartstream.retrieval.dedupe;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class RowDedupeTest {
    record Hit(String chunkId, String row) {
    }

    @Test
    void keepsTheFirstRankedChunkOfEachRowInOrder() {
        List<Hit> ranked = List.of(new Hit("n:7:1", "n:7"), new Hit("n:3:0", "n:3"), new Hit("n:7:0", "n:7"), new Hit("n:9:0", "n:9"));

        assertThat(RowDedupe.strongestPerRow(ranked, Hit::row)).extracting(Hit::chunkId).containsExactly("n:7:1", "n:3:0", "n:9:0");
    }
}

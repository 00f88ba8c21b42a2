package org.chartstream.evaluation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.chartstream.retrieval.SearchMode;
import org.junit.jupiter.api.Test;

class EvalModeTest {
    @Test
    void parsesACommaListInOrderWithoutDuplicates() {
        assertThat(EvalMode.list("hybrid+rerank, lexical,hybrid+rerank")).containsExactly(EvalMode.HYBRID_RERANK, EvalMode.LEXICAL);
        assertThat(EvalMode.HYBRID_RERANK.searchMode()).isEqualTo(SearchMode.HYBRID);
        assertThat(EvalMode.list("hybrid+rrf")).containsExactly(EvalMode.HYBRID_RRF);
        assertThat(EvalMode.HYBRID_RRF.searchMode()).isEqualTo(SearchMode.HYBRID);
        assertThat(EvalMode.list("hybrid+fixed")).containsExactly(EvalMode.HYBRID_FIXED);
    }

    @Test
    void rejectsAnUnknownMode() {
        assertThatThrownBy(() -> EvalMode.list("dense")).hasMessageContaining("unknown mode 'dense'");
        assertThatThrownBy(() -> EvalMode.list("hybrid+rm3")).as("removed with its experiment").hasMessageContaining("unknown mode");
    }
}

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
        assertThat(EvalMode.list("hybrid+feedback")).containsExactly(EvalMode.HYBRID_FEEDBACK);
        assertThat(EvalMode.HYBRID_FEEDBACK.searchMode()).isEqualTo(SearchMode.HYBRID);
        assertThat(EvalMode.list("hybrid+rm3")).containsExactly(EvalMode.HYBRID_RM3);
        assertThat(EvalMode.HYBRID_RM3.searchMode()).isEqualTo(SearchMode.HYBRID);
    }

    @Test
    void rejectsAnUnknownMode() {
        assertThatThrownBy(() -> EvalMode.list("dense")).hasMessageContaining("unknown mode 'dense'");
    }
}

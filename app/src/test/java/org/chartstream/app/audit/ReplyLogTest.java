package org.chartstream.app.audit;

import static org.assertj.core.api.Assertions.assertThat;

import org.chartstream.schemas.AnswerAudit;
import org.chartstream.schemas.CitedChunk;
import org.chartstream.schemas.ReplyType;
import org.junit.jupiter.api.Test;

class ReplyLogTest {
    @Test
    void anAuditRecordCitingAChunkIdThatNamesNoRowIsUnreadable() {
        assertThat(ReplyLog.auditProblem(audit("ehr:notes:n-1:0:2", "ehr:notes:n-2:1:2"))).isNull();
        assertThat(ReplyLog.auditProblem(audit("ehr:notes:n-1:0:2", "not-a-chunk-id")))
                .isEqualTo("citation 2 of the audit record has a chunk id that is not source:table:rowKey:chunkIndex:generation");
    }

    static AnswerAudit audit(String... chunkIds) {
        return AnswerAudit.newBuilder().setRequestId("r1").setConversationId("c1").setUserId("u").setTsMs(1)
                .setOutcome(ReplyType.ANSWER).setEmbeddingModel("m")
                .setCited(java.util.Arrays.stream(chunkIds).map(id -> CitedChunk.newBuilder().setChunkId(id).setGeneration(2)
                        .setSourcePosition("lsn").build()).toList()).build();
    }
}

package org.chartstream.query.request;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.RetrievalFilterSpec;
import org.chartstream.schemas.SearchMode;
import org.junit.jupiter.api.Test;

class RequestFingerprintTest {
    private static QueryRequest.Builder request() {
        return QueryRequest.newBuilder().setRequestId("r1").setConversationId("c1").setUserId("u1")
                .setQuestion("Which patients take metformin?").setTopK(6)
                .setFilter(RetrievalFilterSpec.newBuilder().setTables(List.of("medications", "conditions")).setPatient("MRN-1").build());
    }

    private static String of(QueryRequest.Builder r) {
        return RequestFingerprint.of(r.build());
    }

    @Test
    void aRetryThatOnlyMovesItsDeadlineOrWritesTheQuestionWithOtherWhiteSpaceIsTheSameRequest() {
        String original = of(request());
        assertThat(original).matches("[0-9a-f]{64}");
        assertThat(of(request().setDeadlineMs(123L))).isEqualTo(original);
        assertThat(of(request().setQuestion("  Which patients\u200B take\tmetformin? "))).isEqualTo(original);
        assertThat(of(request().setFilter(RetrievalFilterSpec.newBuilder().setTables(List.of("conditions", "medications", "medications"))
                .setPatient("MRN-1").build()))).as("filter lists are sets").isEqualTo(original);
        assertThat(of(request().setRequestId("r2"))).as("the id is the key, not the content").isEqualTo(original);
    }

    @Test
    void everyFieldThatDecidesTheAnswerChangesIt() {
        String original = of(request());
        for (QueryRequest.Builder other : List.of(request().setQuestion("Which patients take insulin?"), request().setUserId("u2"),
                request().setConversationId("c2"), request().setMode(SearchMode.LEXICAL), request().setTopK(7),
                request().setFilter(null), request().setFilter(RetrievalFilterSpec.newBuilder().setTables(List.of("medications")).setPatient("MRN-1").build()),
                request().setFilter(RetrievalFilterSpec.newBuilder().setTables(List.of("medications", "conditions")).setPatient("MRN-2").build()),
                request().setFilter(RetrievalFilterSpec.newBuilder().setTables(List.of("medications", "conditions")).build()),
                request().setFilter(RetrievalFilterSpec.newBuilder().setTables(List.of("medications")).setSourceIds(List.of("conditions")).setPatient("MRN-1").build()))) {
            assertThat(of(other)).as(other.build().toString()).isNotEqualTo(original);
        }
    }
}

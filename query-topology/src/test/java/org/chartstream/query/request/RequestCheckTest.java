package org.chartstream.query.request;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.chartstream.core.store.TableRef;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.RetrievalFilterSpec;
import org.junit.jupiter.api.Test;

class RequestCheckTest {
    private static final long NOW = 1_700_000_000_000L;
    private final AtomicInteger indexAsked = new AtomicInteger();
    private final Supplier<Set<TableRef>> indexed = () -> {
        indexAsked.incrementAndGet();
        return Set.of(new TableRef("ehr", "conditions"), new TableRef("lab", "results"));
    };

    private static QueryRequest.Builder request() {
        return QueryRequest.newBuilder().setRequestId("r").setConversationId("c").setUserId("u").setQuestion("why?").setTopK(6);
    }

    private RequestCheck.Problem check(QueryRequest.Builder r) {
        return RequestCheck.problem(r.build(), 100, 30, indexed);
    }

    private RequestCheck.Problem check(RetrievalFilterSpec.Builder f) {
        return check(request().setFilter(f.build()));
    }

    @Test
    void aGoodRequestHasNoProblemAndWithoutTableOrSourceFiltersTheIndexIsNotAsked() {
        assertThat(check(request())).isNull();
        assertThat(check(RetrievalFilterSpec.newBuilder().setPatient("MRN-700001").setRowKeys(List.of("{\"$ne\":null}")))).isNull();
        assertThat(check(RetrievalFilterSpec.newBuilder().setPatient("8d2e3f4a-5b6c-4d7e-9f80-123456789012"))).isNull();
        assertThat(check(RetrievalFilterSpec.newBuilder().setPatient("Zoë 12/3456#A"))).isNull();
        assertThat(indexAsked).hasValue(0);
        assertThat(check(RetrievalFilterSpec.newBuilder().setTables(List.of("results")).setSourceIds(List.of("ehr")))).isNull();
    }

    @Test
    void anInjectionShapedPatientFilterIsNotAPatientIdentifier() {
        for (String value : List.of("x' OR '1'='1", "{\"$ne\":null}", "*", "MRN-1; DROP TABLE patients", "-MRN-1", "MRN-1\n")) {
            RequestCheck.Problem problem = check(RetrievalFilterSpec.newBuilder().setPatient(value));
            assertThat(problem).as(value).isNotNull();
            assertThat(problem.field()).isEqualTo("filter.patient");
            assertThat(problem.message()).startsWith("field 'filter.patient' is not a patient identifier").doesNotContain(value);
        }
    }

    @Test
    void eachProblemNamesItsField() {
        assertThat(check(request().setConversationId(" "))).isEqualTo(new RequestCheck.Problem("conversation_id", "field 'conversation_id' is empty"));
        assertThat(check(request().setQuestion("q".repeat(101))).message()).isEqualTo("field 'question' has 101 characters; the limit is 100");
        assertThat(check(request().setTopK(31)).message()).isEqualTo("field 'top_k' is 31; it must be between 1 and 30");
        assertThat(check(request().setDeadlineMs(NOW - 1))).as("a past deadline is a timeout, not bad input").isNull();
        assertThat(RequestCheck.pastDeadline(request().setDeadlineMs(NOW - 1).build(), NOW)).isTrue();
        assertThat(RequestCheck.pastDeadline(request().setDeadlineMs(NOW + 1).build(), NOW)).isFalse();
        assertThat(RequestCheck.pastDeadline(request().build(), NOW)).isFalse();
        assertThat(check(RetrievalFilterSpec.newBuilder().setPatient(""))).isEqualTo(new RequestCheck.Problem("filter.patient", "field 'filter.patient' is empty"));
        assertThat(check(RetrievalFilterSpec.newBuilder().setPatient("p".repeat(513))).message()).isEqualTo("field 'filter.patient' is longer than 512 characters");
        assertThat(check(RetrievalFilterSpec.newBuilder().setRowKeys(List.of("1", " "))).message()).isEqualTo("field 'filter.row_keys' has an empty entry");
        assertThat(check(RetrievalFilterSpec.newBuilder().setTables(List.of("ssn")))).isEqualTo(new RequestCheck.Problem("filter.tables",
                "field 'filter.tables' names 'ssn', which is not an indexed table (indexed: conditions, results)"));
    }

    @Test
    void aQuestionIsMeasuredInCodePointsAndIsEmptyWhenNothingVisibleIsLeft() {
        String emoji = "\uD83E\uDE7A"; // one code point, two UTF-16 units
        assertThat(check(request().setQuestion(emoji.repeat(100)))).as("100 characters, 200 UTF-16 units").isNull();
        assertThat(check(request().setQuestion(emoji.repeat(101))).message()).isEqualTo("field 'question' has 101 characters; the limit is 100");
        for (String invisible : List.of("\u0000\u0000", "\u200B\u200C\u200D\u2060\uFEFF", " \t\n\u00A0\u3000", "\u00AD\u202E\u0007")) {
            RequestCheck.Problem problem = check(request().setQuestion(invisible));
            assertThat(problem).as("%s", invisible.codePoints().mapToObj(Integer::toHexString).toList()).isNotNull();
            assertThat(problem.field()).isEqualTo("question");
            assertThat(problem.message()).startsWith("field 'question' is empty");
        }
        assertThat(check(request().setQuestion("\u200Bwhy\u0000?"))).isNull();
    }

    @Test
    void aReplyTopicMustBeAllowedNotThePipelinesOwnAndExist() {
        ReplyTopics existing = Set.of("chartstream.replies", "chartstream.index", "other.replies")::contains;
        ReplyTopicPolicy policy = ReplyTopicPolicy.defaults();
        assertThat(RequestCheck.replyTopicProblem("chartstream.replies", policy, existing)).isNull();
        assertThat(RequestCheck.replyTopicProblem("chartstream.replies.absent", policy, existing).message())
                .isEqualTo("header 'reply-to' names topic 'chartstream.replies.absent', which does not exist");
        assertThat(RequestCheck.replyTopicProblem("other.replies", policy, existing).message())
                .startsWith("header 'reply-to' names topic 'other.replies', which is not an allowed reply topic");
        assertThat(RequestCheck.replyTopicProblem("chartstream.index", policy, existing).message())
                .startsWith("header 'reply-to' names 'chartstream.index', a topic of the pipeline itself");
        assertThat(RequestCheck.replyTopicProblem("", policy, existing).field()).isEqualTo("reply-to");
        assertThat(RequestCheck.replyTopicProblem("t".repeat(250), policy, existing).message()).contains("not a legal topic name");
    }
}

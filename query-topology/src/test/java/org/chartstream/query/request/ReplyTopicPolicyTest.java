package org.chartstream.query.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ReplyTopicPolicyTest {
    /** An allow-list that names the pipeline's own topics too: they stay refused. */
    private static final ReplyTopicPolicy LISTING_EVERYTHING = new ReplyTopicPolicy(
            List.of("chartstream.replies", "chartstream.replies.*", "chartstream.replay.*", "chartstream.*", "ehr.*", "ehr",
                    "lab.*", "__*", "chartstream-query-*", "app.replies", "*"),
            Set.of("ehr", "lab"), Set.of("chartstream-ingest", "chartstream-query"));

    @Test
    void theDefaultAllowsTheDefaultReplyTopicPerClientReplyTopicsAndReplayRuns() {
        ReplyTopicPolicy policy = ReplyTopicPolicy.defaults();
        for (String topic : List.of("chartstream.replies", "chartstream.replies.ward-7", "chartstream.replay.20261201-0915")) {
            assertThat(policy.problem(topic)).as(topic).isNull();
        }
        for (String topic : List.of("app.replies", "replies", "chartstream.repliesx")) {
            assertThat(policy.problem(topic)).as(topic).isNotNull();
            assertThat(policy.problem(topic).field()).isEqualTo("reply-to");
        }
        assertThat(policy.problem("app.replies").message()).isEqualTo("header 'reply-to' names topic 'app.replies', which is not an allowed"
                + " reply topic (query.reply-topics: chartstream.replies, chartstream.replies.*, chartstream.replay.*)");
    }

    @Test
    void thePipelinesOwnTopicsAreRefusedEvenWhenListed() {
        for (String topic : List.of("chartstream.index", "chartstream.requests", "chartstream.audit", "chartstream.dead-letter",
                "chartstream.ingest.status", "chartstream.ingest.control", "chartstream.repliesx",
                "chartstream-query-pending-requests-changelog", "chartstream-query-request-ids-changelog",
                "chartstream-ingest-row-images-changelog", "other-app-KSTREAM-AGGREGATE-0000000003-repartition",
                "chartstream-query-anything", "ehr", "ehr.public.patients", "ehr.debezium-notifications", "lab.dbo.results",
                "__consumer_offsets", "__transaction_state", "__debezium-heartbeat.ehr")) {
            assertThat(LISTING_EVERYTHING.isPipelineTopic(topic)).as(topic).isTrue();
            assertThat(LISTING_EVERYTHING.problem(topic).message()).as(topic)
                    .isEqualTo("header 'reply-to' names '" + topic + "', a topic of the pipeline itself (index log, requests, audit,"
                            + " dead letter, status, control, Kafka Streams, Debezium or Kafka internal topics): replies never go there");
        }
        for (String topic : List.of("chartstream.replies", "chartstream.replies.x", "chartstream.replay.r1", "app.replies", "ehrx.replies")) {
            assertThat(LISTING_EVERYTHING.problem(topic)).as(topic).isNull();
        }
    }

    @Test
    void aMalformedEntryIsRejected() {
        assertThatThrownBy(() -> new ReplyTopicPolicy(List.of("a b"), Set.of(), Set.of()))
                .hasMessageContaining("'a b' is neither a topic name nor a prefix ending in *");
        assertThatThrownBy(() -> new ReplyTopicPolicy(List.of("a*b"), Set.of(), Set.of())).isInstanceOf(IllegalArgumentException.class);
    }
}

package org.chartstream.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.chartstream.query.admission.AdmissionControl;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.junit.jupiter.api.Test;

class QueryWiringTest {
    @Test
    void theQueryTopologyPollsBrieflyAndKeepsItsTransactionTimeoutAboveALongCommitInterval() {
        assertThat(QueryWiring.streamsSettings(ChartstreamConfig.defaults()))
                .containsEntry(StreamsConfig.POLL_MS_CONFIG, "5")
                .containsEntry(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "1000")
                .containsEntry(StreamsConfig.producerPrefix(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG), "10000");
        assertThat(QueryWiring.streamsSettings(ChartstreamConfig.defaults().with("query.commit-interval-ms", "30000")))
                .containsEntry(StreamsConfig.producerPrefix(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG), "60000");
    }

    @Test
    void admissionAdaptsBetweenItsBoundsAndALowerBoundAboveTheUpperOneIsTheUpperOne() {
        AdmissionControl adaptive = QueryWiring.admission(ChartstreamConfig.defaults());
        assertThat(adaptive.limit()).as("starts at the upper bound").isEqualTo(32);
        for (int i = 0; i < 40; i++) {
            adaptive.tryAcquire(i);
            adaptive.release(i, i + (i == 0 ? 20 : 2_000));
        }
        assertThat(adaptive.limit()).as("backed off to the lower bound").isEqualTo(2);
        AdmissionControl one = QueryWiring.admission(ChartstreamConfig.defaults().with("query.admission-limit", "1"));
        assertThat(one.tryAcquire(0)).isTrue();
        assertThat(one.tryAcquire(1)).isFalse();
    }

    @Test
    void aTurnWaitsBehindAtMostTheConfiguredTurnsOfItsConversationAndNoneWhenItIsZero() {
        AdmissionControl defaults = QueryWiring.admission(ChartstreamConfig.defaults());
        assertThat(defaults.waitsBehind(0)).as("no turn in flight: nothing to overtake").isFalse();
        assertThat(defaults.waitsBehind(8)).isTrue();
        assertThat(defaults.waitsBehind(9)).isFalse();
        AdmissionControl two = QueryWiring.admission(ChartstreamConfig.defaults().with("query.turns-past-limit", "2"));
        assertThat(two.waitsBehind(2)).isTrue();
        assertThat(two.waitsBehind(3)).isFalse();
        assertThat(QueryWiring.admission(ChartstreamConfig.defaults().with("query.turns-past-limit", "0")).waitsBehind(1)).isFalse();
        assertThatThrownBy(() -> ChartstreamConfig.defaults().with("query.turns-past-limit", "-1"))
                .hasMessageContaining("query.turns-past-limit");
    }

    @Test
    void pipelineThreadsAreDaemonsAtNormalPriorityUnlessConfiguredLow() {
        assertThat(QueryWiring.computePriority(ChartstreamConfig.defaults())).isEqualTo(Thread.NORM_PRIORITY);
        int low = QueryWiring.computePriority(ChartstreamConfig.defaults().with("query.compute-priority", "low"));
        Thread t = QueryWiring.computeThreads("search", low).newThread(() -> { });
        assertThat(t.getName()).isEqualTo("search");
        assertThat(t.isDaemon()).isTrue();
        assertThat(t.getPriority()).isEqualTo(Thread.MIN_PRIORITY);
    }
}

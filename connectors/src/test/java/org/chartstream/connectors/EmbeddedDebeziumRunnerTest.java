package org.chartstream.connectors;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

class EmbeddedDebeziumRunnerTest {

    @Test
    void aDeadLetterNamesTheRowByItsPrimaryKeyValuesAsTheIngestSideDoes() {
        assertThat(KafkaHandOver.rowKey("{\"note_id\":17}")).isEqualTo("17");
        assertThat(KafkaHandOver.rowKey("{\"site\":\"a\",\"seq\":3}")).isEqualTo("a|3");
        assertThat(KafkaHandOver.rowKey("{\"schema\":{},\"payload\":{\"id\":\"p-1\"}}")).isEqualTo("p-1");
        assertThat(KafkaHandOver.rowKey(null)).isEqualTo("(no key)");
        assertThat(KafkaHandOver.rowKey("{oops")).isEqualTo("(unreadable key)");
    }

    @Test
    void theRecordSizeLimitIsAnOverrideButAtLeastOnceIsNot() {
        Properties p = EmbeddedDebeziumRunner.producerProperties("ehr", "127.0.0.1:9092",
                Map.of(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, "16777216", ProducerConfig.ACKS_CONFIG, "0"));
        assertThat(p.get(ProducerConfig.MAX_REQUEST_SIZE_CONFIG)).isEqualTo("16777216");
        assertThat(p.get(ProducerConfig.ACKS_CONFIG)).isEqualTo("all");
    }

    @Test
    void anEventWithoutASourcePositionLeavesTheOffsetsWhereTheyWere() {
        Map<String, String> partition = Map.of("server", "ehr");
        // Debezium's notice that a snapshot started, sent before the connector has a position
        assertThat(KafkaHandOver.movesOffsets(new SourceRecord(partition, Map.of(), "ehr.debezium-notifications", null, "{}")))
                .isFalse();
        assertThat(KafkaHandOver.movesOffsets(new SourceRecord(partition, null, "ehr.debezium-notifications", null, "{}")))
                .isFalse();
        assertThat(KafkaHandOver.movesOffsets(new SourceRecord(partition, Map.of("lsn", 22033240L, "txId", 742L),
                "ehr.public.patients", null, "{}"))).isTrue();
    }
}

package org.chartstream.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.chartstream.connectors.DebeziumConfigs;
import org.chartstream.connectors.SourceConnection;
import org.chartstream.ingest.normalize.SourceRegistration;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.schemas.Topics;

/**
 * The topics a runtime of one role needs, created if missing: the pipeline's own ({@link Topics}), each captured
 * source's change topics and notification topic (one partition each), and the checks of partition counts that must
 * not change under a running pipeline.
 */
final class RuntimeTopics {
    private final ChartstreamConfig config;
    private final PipelineRuntime.Role role;
    private final List<SourceRegistration> sources;
    private final Map<String, SourceConnection> connections;
    private final String bootstrap;
    private final Map<String, String> security;
    private final int maxRecordBytes;

    /** @param connections the connection of every source this process knows the database of */
    RuntimeTopics(ChartstreamConfig config, PipelineRuntime.Role role, List<SourceRegistration> sources,
                  Map<String, SourceConnection> connections, String bootstrap, Map<String, String> security, int maxRecordBytes) {
        this.config = config;
        this.role = role;
        this.sources = sources;
        this.connections = connections;
        this.bootstrap = bootstrap;
        this.security = security;
        this.maxRecordBytes = maxRecordBytes;
    }

    /** Creates what is missing (idempotent) and checks the partition counts that cannot change. */
    void ensure() {
        List<PipelineTopics.Spec> specs = new ArrayList<>();
        for (String topic : List.of(Topics.REPLIES, Topics.AUDIT, Topics.DEAD_LETTER, Topics.INGEST_CONTROL)) {
            specs.add(new PipelineTopics.Spec(topic, 1, false));
        }
        if (role.answers()) {
            // created by a query process only: its count is the query side's setting (an ingest process never reads it)
            specs.add(new PipelineTopics.Spec(Topics.REQUESTS, (int) config.integer("query.partitions"), false));
        }
        specs.add(new PipelineTopics.Spec(Topics.INDEX, (int) config.integer("index.partitions"), false));
        specs.add(new PipelineTopics.Spec(Topics.INGEST_STATUS, 1, true));
        specs.add(new PipelineTopics.Spec(Topics.INGEST_EMBED, config.ingestPartitions(), false));
        specs.add(new PipelineTopics.Spec(Topics.INGEST_PROGRESS, 1, true));
        specs.add(new PipelineTopics.Spec(Topics.STORE_STATUS, 1, true));
        List<String> singlePartition = new ArrayList<>(List.of(Topics.INGEST_CONTROL));
        for (SourceRegistration source : sources) {
            if (!connections.containsKey(source.sourceId())) {
                continue; // an embedded source seen from a query process: its ingest process creates the topics
            }
            for (String topic : DebeziumConfigs.topicsFor(connections.get(source.sourceId()), source.topicPrefix())) {
                specs.add(new PipelineTopics.Spec(topic, 1, false));
                singlePartition.add(topic);
            }
            // Debezium's snapshot notices: the ingest side publishes a single-row first table on them. One partition,
            // like the change topics, so the notices reach the task that holds the tables' generation state.
            specs.add(new PipelineTopics.Spec(source.notificationTopic(), 1, false));
            singlePartition.add(source.notificationTopic());
        }
        PipelineTopics.ensure(bootstrap, security, specs, singlePartition, maxRecordBytes);
        if (role.answers()) {
            requireRequestPartitions(PipelineTopics.partitionCount(bootstrap, security, Topics.REQUESTS));
        }
        if (role.ingests()) {
            requireEmbeddingPartitions();
        }
    }

    /**
     * The embedding task of repartition partition p writes index-log partition p only (so that a generation's
     * marker follows that partition's rows on every index-log partition): both topics must have the configured
     * count. Checked, never changed: another count would send a row's events to another task than its earlier ones.
     */
    private void requireEmbeddingPartitions() {
        for (String topic : List.of(Topics.INGEST_EMBED, Topics.INDEX)) {
            int actual = PipelineTopics.partitionCount(bootstrap, security, topic);
            if (actual != config.ingestPartitions()) {
                throw config.invalid("ingest.partitions", topic + " exists with " + actual + " partition(s), not "
                        + config.ingestPartitions() + "; the ingest repartition topic and the index log must both have"
                        + " ingest.partitions = index.partitions partitions: set " + actual + ", or start on a new broker or topic set");
            }
        }
    }

    /**
     * A conversation's memory, request ids and turn order live with the task of its request partition (the topic is
     * keyed by conversation id): another partition count maps conversations to other tasks, which know nothing of
     * them. So the count is checked, never changed.
     */
    private void requireRequestPartitions(int actual) {
        long configured = config.integer("query.partitions");
        if (actual != configured) {
            throw config.invalid("query.partitions", Topics.REQUESTS + " exists with " + actual + " partition(s); the count of an"
                    + " existing request topic cannot change (conversations would move away from their memory): set " + actual
                    + ", or start on a new broker or topic set");
        }
    }
}

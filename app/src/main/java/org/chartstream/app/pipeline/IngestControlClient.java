package org.chartstream.app.pipeline;

import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.chartstream.core.store.TableRef;
import org.chartstream.schemas.IngestCommand;
import org.chartstream.schemas.IngestControl;
import org.chartstream.schemas.Topics;
import org.chartstream.schemas.serde.AvroSerde;

/** Sends operator requests to a running ingest topology on its control topic ({@link IngestControl}). */
public final class IngestControlClient {
    private IngestControlClient() {
    }

    /** Asks the running ingest topology to rebuild one table as a new generation. */
    public static void requestReindex(String bootstrapServers, TableRef table) {
        requestReindex(bootstrapServers, Map.of(), table);
    }

    /** The same through a broker that needs further client settings (transport security). */
    public static void requestReindex(String bootstrapServers, Map<String, ?> clientOverrides, TableRef table) {
        Properties p = new Properties();
        p.putAll(clientOverrides);
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        IngestControl request = IngestControl.newBuilder().setCommand(IngestCommand.REINDEX).setSourceId(table.sourceId())
                .setTableName(table.table()).setRequestedMs(System.currentTimeMillis()).build();
        try (KafkaProducer<String, IngestControl> producer = new KafkaProducer<>(p, new StringSerializer(), AvroSerde.of(IngestControl.class))) {
            producer.send(new ProducerRecord<>(Topics.INGEST_CONTROL, table.id(), request)).get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot send the re-index request: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}

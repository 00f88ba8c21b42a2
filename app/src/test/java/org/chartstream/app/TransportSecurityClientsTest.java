package org.chartstream.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.chartstream.app.pipeline.IngestStatusReader;
import org.chartstream.client.QueryClient;
import org.chartstream.core.store.TableRef;
import org.chartstream.replica.IndexMaterializer;
import org.chartstream.runtime.StreamsClients;
import org.chartstream.runtime.PipelineTopics;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.runtime.config.TransportSecurity;
import org.chartstream.store.lucene.LuceneHybridStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The transport security settings reach the Kafka clients the runtime creates: each client is pointed at a loopback
 * socket that stands in for a TLS broker (a test double: it only records the first byte of every connection) and
 * must open every connection with a TLS handshake record (0x16), not with a plaintext Kafka request.
 */
class TransportSecurityClientsTest {
    private static final int TLS_HANDSHAKE = 0x16;
    private final List<Integer> firstBytes = new CopyOnWriteArrayList<>();
    private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "tls-test");
        t.setDaemon(true);
        return t;
    });
    private ServerSocket listener;
    private Map<String, String> security;
    private String bootstrap;

    @TempDir
    Path dir;

    @BeforeEach
    void listen() throws Exception {
        listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        bootstrap = "127.0.0.1:" + listener.getLocalPort();
        pool.submit(() -> {
            while (!listener.isClosed()) {
                try (Socket s = listener.accept(); InputStream in = s.getInputStream()) {
                    s.setSoTimeout(5_000);
                    firstBytes.add(in.read());
                } catch (Exception e) {
                    // closed at the end of the test
                }
            }
        });
        security = TransportSecurity.kafkaClientProperties(ChartstreamConfig.defaults().with("kafka.bootstrap", bootstrap)
                .with("kafka.security.protocol", "SSL"));
        assertThat(security).containsEntry("security.protocol", "SSL");
    }

    @AfterEach
    void close() throws Exception {
        listener.close();
        pool.shutdownNow();
    }

    @Test
    void theIndexMaterializerConsumerSpeaksTls() throws Exception {
        try (LuceneHybridStore store = LuceneHybridStore.open(dir.resolve("index"));
             IndexMaterializer materializer = new IndexMaterializer(bootstrap, security, "chartstream.index", store, Duration.ofSeconds(1)).start()) {
            awaitConnections();
        }
        assertAllTls();
    }

    @Test
    void theKafkaStreamsInstancesSpeakTls() throws Exception {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("chartstream.requests");
        try (KafkaStreams streams = new KafkaStreams(builder.build(),
                StreamsClients.streamsProperties("tls-test", bootstrap, security, dir.resolve("streams")))) {
            streams.start();
            awaitConnections();
            streams.close(Duration.ZERO);
        }
        assertAllTls();
    }

    @Test
    void theTopicAdminAndTheQueryClientSpeakTls() throws Exception {
        Map<String, String> quick = new HashMap<>(security);
        quick.put("request.timeout.ms", "2000");
        quick.put("default.api.timeout.ms", "2000");
        Future<?> admin = pool.submit(() -> PipelineTopics.ensure(bootstrap, quick, List.of(), List.of()));
        awaitConnections();
        admin.cancel(true);
        int adminConnections = firstBytes.size();
        Future<?> client = pool.submit(() -> new QueryClient(bootstrap, security, "chartstream.replies").close());
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (firstBytes.size() == adminConnections && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        client.cancel(true);
        assertThat(firstBytes.size()).as("the query client connected").isGreaterThan(adminConnections);
        assertAllTls();
    }

    @Test
    void theStatusReaderAndTheReindexRequestSpeakTls() throws Exception {
        Map<String, String> quick = new HashMap<>(security);
        quick.put("request.timeout.ms", "2000");
        quick.put("default.api.timeout.ms", "2000");
        quick.put("max.block.ms", "2000");
        Future<?> status = pool.submit(() -> {
            try (IngestStatusReader reader = new IngestStatusReader(bootstrap, quick)) {
                reader.latestTableStatus(Duration.ofSeconds(2));
            }
        });
        awaitConnections();
        status.cancel(true);
        int statusConnections = firstBytes.size();
        Future<?> reindex = pool.submit(() -> org.chartstream.app.pipeline.IngestControlClient.requestReindex(bootstrap, quick, new TableRef("ehr", "patients")));
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (firstBytes.size() == statusConnections && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        reindex.cancel(true);
        assertThat(firstBytes.size()).as("the re-index request's producer connected").isGreaterThan(statusConnections);
        assertAllTls();
    }

    private void awaitConnections() throws InterruptedException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (firstBytes.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(firstBytes).as("connections to the stand-in broker").isNotEmpty();
    }

    private void assertAllTls() {
        assertThat(firstBytes).as("first byte of every connection").containsOnly(TLS_HANDSHAKE);
    }
}

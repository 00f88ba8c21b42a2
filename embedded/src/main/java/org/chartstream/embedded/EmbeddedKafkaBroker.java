package org.chartstream.embedded;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An in-process Kafka 4.3 node in KRaft combined mode (broker and controller in one), listening on loopback.
 *
 * <p>Internal topics (consumer offsets, transaction state, share-coordinator state) have replication factor 1 and
 * min ISR 1, so groups, transactions and Kafka Streams {@code exactly_once_v2} work on the single node;
 * {@code group.initial.rebalance.delay.ms=0}; automatic topic creation is on; {@code num.partitions} is configurable
 * (default 1). The data directory is formatted with Kafka's {@link Formatter} only when it holds no
 * {@code meta.properties} yet, so starting again on the same directory keeps the cluster id, topics and records.
 * Ports are free loopback ports chosen at each start unless fixed with {@link #brokerPort(int)}.
 *
 * <pre>{@code
 * try (EmbeddedKafkaBroker kafka = new EmbeddedKafkaBroker().start(dir)) {
 *     kafka.createTopics(Map.of("chartstream.requests", 3));
 *     String bootstrap = kafka.bootstrapServers();
 * }
 * }</pre>
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {

    /** The line prefix under which {@code chartstream broker} prints this broker's address for the process that started it. */
    public static final String BOOTSTRAP_LINE_PREFIX = "bootstrap=";
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafkaBroker.class);
    private static final String HOST = "127.0.0.1";
    private static final int NODE_ID = 1;

    private int numPartitions = 1;
    private int brokerPort;
    private int controllerPort;
    private final Map<String, String> overrides = new LinkedHashMap<>();

    private KafkaRaftServer server;
    private int boundBrokerPort;
    private int boundControllerPort;
    private String bootstrapServers;
    private String clusterId;
    private Path dataDir;
    private boolean formattedNow;

    /** A broker with one partition per auto-created topic and free ports. Configure, then {@link #start(Path)}. */
    public EmbeddedKafkaBroker() {
    }

    /** Default partition count of auto-created topics ({@code num.partitions}); default 1. */
    public EmbeddedKafkaBroker numPartitions(int partitions) {
        if (partitions < 1) {
            throw new IllegalArgumentException("numPartitions must be >= 1");
        }
        requireNotStarted();
        this.numPartitions = partitions;
        return this;
    }

    /** Fixed client (PLAINTEXT) port; 0 (default) picks a free port at each start. */
    public EmbeddedKafkaBroker brokerPort(int port) {
        requireNotStarted();
        this.brokerPort = port;
        return this;
    }

    /** Fixed controller port; 0 (default) picks a free port at each start. */
    public EmbeddedKafkaBroker controllerPort(int port) {
        requireNotStarted();
        this.controllerPort = port;
        return this;
    }

    /** Any other broker setting (applied last, overriding the defaults). */
    public EmbeddedKafkaBroker config(String key, String value) {
        requireNotStarted();
        overrides.put(key, value);
        return this;
    }

    /**
     * Formats {@code dataDir} if needed and starts the node; returns when the broker is ready for clients.
     *
     * @param dataDir log and metadata directory; kept across restarts
     */
    public synchronized EmbeddedKafkaBroker start(Path dataDir) throws IOException {
        requireNotStarted();
        long t0 = System.nanoTime();
        this.dataDir = dataDir.toAbsolutePath();
        Files.createDirectories(this.dataDir);
        int bp = brokerPort > 0 ? brokerPort : freePort();
        int cp = controllerPort > 0 ? controllerPort : freePort(bp);
        String dir = this.dataDir.toString();

        Map<String, Object> props = new HashMap<>();
        props.put("process.roles", "broker,controller");
        props.put("node.id", Integer.toString(NODE_ID));
        props.put("controller.quorum.voters", NODE_ID + "@" + HOST + ":" + cp);
        props.put("listeners", "PLAINTEXT://" + HOST + ":" + bp + ",CONTROLLER://" + HOST + ":" + cp);
        props.put("advertised.listeners", "PLAINTEXT://" + HOST + ":" + bp);
        props.put("controller.listener.names", "CONTROLLER");
        props.put("inter.broker.listener.name", "PLAINTEXT");
        props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        props.put("log.dirs", dir);
        props.put("metadata.log.dir", dir);
        props.put("num.partitions", Integer.toString(numPartitions));
        props.put("default.replication.factor", "1");
        props.put("min.insync.replicas", "1");
        props.put("auto.create.topics.enable", "true");
        props.put("offsets.topic.replication.factor", "1");
        props.put("offsets.topic.num.partitions", "5");
        props.put("transaction.state.log.replication.factor", "1");
        props.put("transaction.state.log.min.isr", "1");
        props.put("transaction.state.log.num.partitions", "5");
        props.put("share.coordinator.state.topic.replication.factor", "1");
        props.put("share.coordinator.state.topic.min.isr", "1");
        props.put("share.coordinator.state.topic.num.partitions", "5");
        props.put("group.initial.rebalance.delay.ms", "0");
        props.putAll(overrides);

        boolean formatted = Files.exists(this.dataDir.resolve("meta.properties"));
        if (!formatted) {
            String newClusterId = Uuid.randomUuid().toString();
            try {
                new Formatter()
                        .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
                        .setNodeId(NODE_ID)
                        .setClusterId(newClusterId)
                        .setDirectories(List.of(dir))
                        .setMetadataLogDirectory(dir)
                        .setControllerListenerName("CONTROLLER")
                        .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
                        .run();
            } catch (Exception e) {
                throw new IOException("formatting the Kafka data directory " + dir + " failed: " + e, e);
            }
        }
        this.formattedNow = !formatted;
        this.clusterId = readClusterId(this.dataDir);

        KafkaRaftServer s = new KafkaRaftServer(new KafkaConfig(props), Time.SYSTEM);
        try {
            s.startup();
        } catch (RuntimeException e) {
            try {
                s.shutdown();
                s.awaitShutdown();
            } catch (RuntimeException ignored) {
                // already failing
            }
            throw new IOException("starting the embedded Kafka broker failed: " + e, e);
        }
        this.server = s;
        this.boundBrokerPort = bp;
        this.boundControllerPort = cp;
        this.bootstrapServers = HOST + ":" + bp;
        LOG.info("Embedded Kafka {} at {} ({} data dir, cluster {}) in {} ms", formatted ? "restarted" : "started",
                bootstrapServers, formatted ? "existing" : "new", clusterId, (System.nanoTime() - t0) / 1_000_000);
        return this;
    }

    /**
     * Stops the node and starts it again on the same data directory and the same ports, so that running clients
     * reconnect to the bootstrap address they know (a broker restart as operations would do it).
     */
    public synchronized EmbeddedKafkaBroker restart() throws IOException {
        requireStarted();
        int bp = boundBrokerPort;
        int cp = boundControllerPort;
        close();
        brokerPort = bp;
        controllerPort = cp;
        return start(dataDir);
    }

    private static String readClusterId(Path dataDir) throws IOException {
        Properties meta = new Properties();
        try (var in = Files.newInputStream(dataDir.resolve("meta.properties"))) {
            meta.load(in);
        }
        return meta.getProperty("cluster.id");
    }

    /** {@code 127.0.0.1:<port>} for clients. */
    public String bootstrapServers() {
        requireStarted();
        return bootstrapServers;
    }

    /** The KRaft cluster id (kept across restarts on the same data directory). */
    public String clusterId() {
        requireStarted();
        return clusterId;
    }

    /** The data directory. */
    public Path dataDir() {
        return dataDir;
    }

    /** True if this start formatted a new data directory, false if it reused one. */
    public boolean formattedOnStart() {
        return formattedNow;
    }

    public synchronized boolean isRunning() {
        return server != null;
    }

    /** Admin client properties for this broker. */
    public Properties clientProperties() {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        return p;
    }

    /**
     * Creates the topics that do not exist yet (replication factor 1) and waits for them; existing topics are left
     * as they are (idempotent).
     *
     * @param nameToPartitions topic name to partition count
     */
    public void createTopics(Map<String, Integer> nameToPartitions) {
        requireStarted();
        if (nameToPartitions.isEmpty()) {
            return;
        }
        Properties p = clientProperties();
        p.put(AdminClientConfig.CLIENT_ID_CONFIG, "chartstream-embedded-admin");
        try (Admin admin = Admin.create(p)) {
            Set<String> existing = admin.listTopics().names().get();
            List<NewTopic> missing = new ArrayList<>();
            nameToPartitions.forEach((name, partitions) -> {
                if (!existing.contains(name)) {
                    missing.add(new NewTopic(name, partitions, (short) 1));
                }
            });
            if (missing.isEmpty()) {
                return;
            }
            for (var e : admin.createTopics(missing).values().entrySet()) {
                try {
                    e.getValue().get();
                } catch (ExecutionException ex) {
                    if (!(ex.getCause() instanceof TopicExistsException)) {
                        throw new IllegalStateException("creating topic " + e.getKey() + " failed: " + ex.getCause(),
                                ex.getCause());
                    }
                }
            }
            // metadata propagates asynchronously: wait until every topic is described with all partitions
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            List<String> names = missing.stream().map(NewTopic::name).toList();
            while (true) {
                try {
                    admin.describeTopics(names).allTopicNames().get();
                    break;
                } catch (ExecutionException ex) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("topics not visible after 30 s: " + names, ex.getCause());
                    }
                    Thread.sleep(50);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("listing topics failed: " + e.getCause(), e.getCause());
        }
    }

    /** Shuts the node down and waits for it; the data directory stays. Idempotent. */
    @Override
    public synchronized void close() {
        KafkaRaftServer s = server;
        if (s == null) {
            return;
        }
        server = null;
        long t0 = System.nanoTime();
        try {
            s.shutdown();
            s.awaitShutdown();
        } finally {
            LOG.info("Embedded Kafka at {} stopped in {} ms", bootstrapServers, (System.nanoTime() - t0) / 1_000_000);
        }
    }

    private void requireNotStarted() {
        if (server != null) {
            throw new IllegalStateException("broker already started");
        }
    }

    private void requireStarted() {
        if (server == null) {
            throw new IllegalStateException("broker not started");
        }
    }

    static int freePort(int... avoid) throws IOException {
        for (int attempt = 0; attempt < 20; attempt++) {
            int port;
            try (ServerSocket socket = new ServerSocket(0, 50, InetAddress.getByName(HOST))) {
                socket.setReuseAddress(true);
                port = socket.getLocalPort();
            }
            boolean clash = false;
            for (int a : avoid) {
                clash |= a == port;
            }
            if (!clash) {
                return port;
            }
        }
        throw new IOException("no free loopback port found");
    }
}

package org.chartstream.bench;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.chartstream.client.KafkaClientProperties;
import org.chartstream.client.ReplyTally;
import org.chartstream.datasets.ClinicalDataset;
import org.chartstream.datasets.ClinicalDatasetLoader;
import org.chartstream.embedded.EmbeddedKafkaBroker;
import org.chartstream.evaluation.RankingMetrics;
import org.chartstream.runtime.PipelineRuntime;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.Topics;
import org.chartstream.schemas.serde.AvroSerde;

/**
 * M query instances (each {@code run --role query} in a JVM of its own, with its own state directory and Lucene
 * replica of the index log) sharing the request topic as one consumer group, an ingest runtime in this JVM (embedded
 * PostgreSQL with the synthetic dataset, Debezium, ingest topology) and the embedded broker. Once every instance is
 * ready and the group has spread the request partitions over all of them, C clients each post conversations of T
 * turns, all turns of a conversation at once (so the pipeline, not the client, keeps them in order), and wait for
 * their final replies. When a share of the requests has its final reply, one instance is killed with SIGKILL while it
 * has requests in flight. Every reply event is read from the reply topic and counted ({@link ReplyTally}): lost
 * requests, repeated final replies, repeated ones with conflicting content, conversations answered out of order.
 */
public final class ScaleOutLoad {
    private static final AvroSerde<QueryRequest> REQUESTS = AvroSerde.of(QueryRequest.class);
    private static final AvroSerde<ReplyEvent> REPLIES = AvroSerde.of(ReplyEvent.class);
    /** Turns of a conversation, cycled: questions about the synthetic records, the later ones follow-ups. */
    private static final List<String> QUESTIONS = List.of("Which patients have essential hypertension?",
            "What medications are they taking?", "Which conditions are recorded for them?", "Which patients take metformin?",
            "What did the last encounter note say?", "Which patients have diabetes?");
    /** How long repeats may still arrive after the last client is done (a final reply re-sent by a task that moved). */
    private static final Duration LATE_REPEATS = Duration.ofSeconds(3);

    /**
     * @param instances           query instances started
     * @param partitions          partitions of the request topic ({@code query.partitions})
     * @param patients            synthetic patients in the source
     * @param clients             clients posting at the same time
     * @param conversations       conversations each client posts, one after another
     * @param turns               turns per conversation, posted at once
     * @param killAfter           share of the requests answered before one instance is killed (0 to 1)
     * @param timeout             longest wait for a conversation's final replies before its missing ones count as lost
     * @param instanceSettings    further configuration of every query instance
     */
    public record Settings(int instances, int partitions, int patients, int clients, int conversations, int turns, double killAfter,
                           Duration timeout, Map<String, String> instanceSettings) {
        public int requests() {
            return clients * conversations * turns;
        }
    }

    /**
     * @param inFlightAtKill requests the killed instance had in flight when it was killed (0: the kill found no load to
     *                       take over, and the run says nothing about failover)
     * @param rpsBeforeKill answered requests per second from the first request until the kill (every instance up)
     * @param rpsAfterKill  the same from the kill until the last client was done (the failover pause included)
     * @param resumedFromPending requests the surviving instances took over from the changelogged pending store
     */
    public record Result(Settings settings, int killed, int inFlightAtKill, ReplyTally.Summary replies, int resumedFromPending,
                         double rpsBeforeKill, double rpsAfterKill) {
        public double p50Ms() {
            return RankingMetrics.percentile(replies.latenciesMs(), 0.5);
        }

        public double p99Ms() {
            return RankingMetrics.percentile(replies.latenciesMs(), 0.99);
        }

        /** {@code {"query":{…}}}: the query side's figures (the bench command adds what it does not measure). */
        public String queryJson() {
            StringBuilder types = new StringBuilder("{");
            replies.firstFinalTypes().forEach((t, n) -> types.append(types.length() > 1 ? ", " : "").append('"')
                    .append(t.name().toLowerCase(Locale.ROOT)).append("\":").append(n));
            types.append('}');
            return String.format(Locale.ROOT, "{\"instances\":%d, \"killed\":%d, \"in_flight_at_kill\":%d, \"partitions\":%d,"
                    + " \"requests\":%d, \"answered\":%d, \"lost\":%d, \"duplicates\":%d, \"conflicting_duplicates\":%d, \"conversations_out_of_order\":%d,"
                    + " \"resumed_from_pending\":%d, \"final_types\":%s, \"p50_ms\":%.1f, \"p99_ms\":%.1f, \"rps_before_kill\":%.2f,"
                    + " \"rps_after_kill\":%.2f}", settings.instances(), killed, inFlightAtKill, settings.partitions(), replies.requests(),
                    replies.answered(), replies.lost(), replies.duplicates(), replies.conflictingDuplicates(), replies.conversationsOutOfOrder(),
                    resumedFromPending, types, p50Ms(), p99Ms(), rpsBeforeKill, rpsAfterKill);
        }
    }

    private ScaleOutLoad() {
    }

    /** Runs it all under {@code work} (fresh), stopping everything it started before it returns. */
    public static Result run(ChartstreamConfig base, Settings s, QueryInstanceProcess.Launcher launcher, Path work,
                             Consumer<String> progress) throws Exception {
        Files.createDirectories(work);
        long t0 = System.nanoTime();
        Consumer<String> log = line -> progress.accept(String.format(Locale.ROOT, "%6.1f s  %s", (System.nanoTime() - t0) / 1e9, line));
        List<QueryInstanceProcess> instances = new ArrayList<>();
        try (EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker().start(work.resolve("kafka"))) {
            String bootstrap = broker.bootstrapServers();
            ChartstreamConfig ingestConfig = base.with("kafka.bootstrap", bootstrap).with("dataset.patients", Integer.toString(s.patients()))
                    .with("query.partitions", Integer.toString(s.partitions())).with("embedding.threads", "1");
            ClinicalDataset dataset = PipelineBenchRuntime.dataset(ingestConfig, s.patients());
            try (PipelineRuntime ingest = PipelineRuntime.start(ingestConfig, work.resolve("ingest"),
                    c -> ClinicalDatasetLoader.load(c, dataset), line -> log.accept("[ingest] " + line), PipelineRuntime.Role.INGEST)) {
                for (int i = 0; i < s.instances(); i++) {
                    String name = "query-" + (i + 1);
                    Path dir = work.resolve(name);
                    instances.add(QueryInstanceProcess.start(launcher, name, instanceConfig(dir, bootstrap, freePort(), s),
                            dir.resolve("chartstream.properties"), work.resolve(name + ".log")));
                }
                awaitServing(instances, bootstrap, s, log);
                Duration commitInterval = Duration.ofMillis(Long.parseLong(s.instanceSettings().getOrDefault("query.commit-interval-ms",
                        base.string("query.commit-interval-ms"))));
                Result result = load(bootstrap, instances, s, commitInterval, log);
                log.accept("done: " + result.queryJson());
                return result;
            } finally {
                for (QueryInstanceProcess instance : instances) {
                    instance.close();
                }
            }
        }
    }

    private static Map<String, String> instanceConfig(Path dir, String bootstrap, int opsPort, Settings s) {
        Map<String, String> keys = new LinkedHashMap<>();
        keys.put("data.dir", dir.toString());
        keys.put("kafka.bootstrap", bootstrap);
        keys.put("ops.http.port", Integer.toString(opsPort));
        keys.put("query.partitions", Integer.toString(s.partitions()));
        keys.put("dataset.patients", Integer.toString(s.patients()));
        // one ONNX thread per instance, so that two instances fit two cores
        keys.put("embedding.threads", "1");
        keys.putAll(s.instanceSettings());
        return keys;
    }

    /** Every instance ready ({@code /ready}: store, indexes, models, pipeline) and the request partitions spread over all of them. */
    private static void awaitServing(List<QueryInstanceProcess> instances, String bootstrap, Settings s, Consumer<String> log)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
        Set<String> ready = new HashSet<>();
        while (ready.size() < instances.size()) {
            for (QueryInstanceProcess instance : instances) {
                if (!instance.isAlive()) {
                    throw new IllegalStateException(instance.name() + " stopped while starting (see its log)");
                }
                if (!ready.contains(instance.name()) && instance.ready()) {
                    ready.add(instance.name());
                    log.accept(instance.name() + " ready");
                }
            }
            requireBefore(deadline, "query instances ready within 10 min");
            Thread.sleep(500);
        }
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(p)) {
            while (true) {
                List<Integer> spread = requestPartitionsPerMember(admin);
                if (spread.size() == instances.size() && spread.stream().allMatch(n -> n > 0)
                        && spread.stream().mapToInt(Integer::intValue).sum() == s.partitions()) {
                    log.accept("request partitions per instance: " + spread);
                    return;
                }
                requireBefore(deadline, "the request partitions spread over every instance");
                Thread.sleep(500);
            }
        }
    }

    private static List<Integer> requestPartitionsPerMember(Admin admin) throws InterruptedException {
        try {
            ConsumerGroupDescription group = admin.describeConsumerGroups(List.of(PipelineRuntime.QUERY_APPLICATION_ID)).all().get()
                    .get(PipelineRuntime.QUERY_APPLICATION_ID);
            List<Integer> counts = new ArrayList<>();
            for (MemberDescription m : group.members()) {
                counts.add((int) m.assignment().topicPartitions().stream().filter(tp -> tp.topic().equals(Topics.REQUESTS)).count());
            }
            return counts;
        } catch (java.util.concurrent.ExecutionException e) {
            return List.of();
        }
    }

    private static Result load(String bootstrap, List<QueryInstanceProcess> instances, Settings s, Duration commitInterval,
                               Consumer<String> log) throws Exception {
        ReplyTally tally = new ReplyTally();
        AtomicBoolean reading = new AtomicBoolean(true);
        Properties c = KafkaClientProperties.readCommittedConsumer(bootstrap, Map.of(), "scaleout-reply-reader");
        try (KafkaConsumer<String, byte[]> replies = new KafkaConsumer<>(c, new StringDeserializer(), new ByteArrayDeserializer());
             KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                     ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.LINGER_MS_CONFIG, "0"), new StringSerializer(), new ByteArraySerializer())) {
            List<TopicPartition> partitions = replies.partitionsFor(Topics.REPLIES, Duration.ofSeconds(30)).stream()
                    .map(i -> new TopicPartition(i.topic(), i.partition())).toList();
            replies.assign(partitions);
            replies.seekToEnd(partitions);
            partitions.forEach(replies::position);
            ExecutorService pool = Executors.newFixedThreadPool(s.clients() + 1);
            try {
                Future<?> reader = pool.submit(() -> {
                    while (reading.get()) {
                        for (ConsumerRecord<String, byte[]> r : replies.poll(Duration.ofMillis(50))) {
                            ReplyEvent e = r.value() == null ? null : REPLIES.tryDeserialize(r.value());
                            if (e != null) {
                                tally.received(e, System.nanoTime());
                            }
                        }
                    }
                    return null;
                });
                long start = System.nanoTime();
                List<Future<?>> clients = new ArrayList<>();
                for (int client = 0; client < s.clients(); client++) {
                    int id = client;
                    clients.add(pool.submit(() -> {
                        for (int conversation = 0; conversation < s.conversations(); conversation++) {
                            converse(producer, tally, "scaleout-" + id + "-" + conversation, id + conversation, s);
                        }
                        return null;
                    }));
                }
                QueryInstanceProcess victim = instances.get(instances.size() - 1);
                Kill kill = killMidLoad(victim, tally, s, commitInterval, () -> clients.stream().allMatch(Future::isDone), log);
                long killedAt = kill.atNanos();
                int answeredAtKill = tally.summary().answered();
                await(clients);
                long end = System.nanoTime();
                Thread.sleep(LATE_REPEATS.toMillis());
                reading.set(false);
                await(List.of(reader));
                int resumed = 0;
                for (QueryInstanceProcess survivor : instances.subList(0, instances.size() - 1)) {
                    resumed += survivor.resumedFromPending();
                }
                ReplyTally.Summary summary = tally.summary();
                return new Result(s, 1, kill.inFlight(), summary, resumed, answeredAtKill / ((killedAt - start) / 1e9),
                        (summary.answered() - answeredAtKill) / ((end - killedAt) / 1e9));
            } finally {
                reading.set(false);
                pool.shutdownNow();
            }
        }
    }

    /** Posts every turn of a conversation at once, then waits (up to the timeout) for all their final replies. */
    private static void converse(KafkaProducer<String, byte[]> producer, ReplyTally tally, String conversation, int firstQuestion,
                                 Settings s) throws Exception {
        List<String> ids = new ArrayList<>();
        for (int turn = 0; turn < s.turns(); turn++) {
            String id = UUID.randomUUID().toString();
            QueryRequest r = QueryRequest.newBuilder().setRequestId(id).setConversationId(conversation).setUserId("scaleout")
                    .setQuestion(QUESTIONS.get((firstQuestion + turn) % QUESTIONS.size())).setTopK(4).build();
            ProducerRecord<String, byte[]> record = new ProducerRecord<>(Topics.REQUESTS, conversation, REQUESTS.serialize(r));
            record.headers().add(Topics.HEADER_REPLY_TO, Topics.REPLIES.getBytes(StandardCharsets.UTF_8));
            record.headers().add(Topics.HEADER_CORRELATION_ID, id.getBytes(StandardCharsets.UTF_8));
            tally.sent(id, conversation, System.nanoTime());
            producer.send(record).get();
            ids.add(id);
        }
        tally.awaitAnswered(ids, s.timeout().toNanos());
    }

    /**
     * Waits until the kill share of the requests is answered (or the clients are done: then requests were lost before
     * any kill), then until the victim's oldest request in flight was admitted two of its commit intervals and 300 ms
     * ago (at most 60 s), and kills it; returns when. A request admitted that long ago has been through a commit, so
     * it is in the committed pending store and a survivor takes it over from there; one admitted after the victim's
     * last commit is not, and a survivor reads it again from the request topic instead. CI saw kills with only such
     * requests in flight: by a rule that looked at the count in flight alone, and by this rule with 200 ms and a 10 s
     * bound, on a machine so loaded that the victim answered nothing for 6 s. (A second instead of 300 ms was too
     * long on a quiet machine: every request was answered before one was that old.)
     */
    private static Kill killMidLoad(QueryInstanceProcess victim, ReplyTally tally, Settings s, Duration commitInterval,
                                    java.util.function.BooleanSupplier clientsDone, Consumer<String> log) throws InterruptedException {
        int threshold = (int) Math.ceil(s.killAfter() * s.requests());
        while (tally.summary().answered() < threshold && !clientsDone.getAsBoolean()) {
            Thread.sleep(20);
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        long committedAge = 2 * commitInterval.toMillis() + 300;
        long oldest = victim.oldestInFlightMs();
        while (oldest < committedAge && System.nanoTime() < deadline && !clientsDone.getAsBoolean()) {
            Thread.sleep(10);
            oldest = victim.oldestInFlightMs();
        }
        int inFlight = victim.inFlight();
        victim.kill();
        log.accept(String.format(Locale.ROOT, "killed %s (SIGKILL) with %d request(s) in flight, the oldest admitted %d ms before,"
                + " %d of %d answered", victim.name(), inFlight, oldest, tally.summary().answered(), s.requests()));
        return new Kill(System.nanoTime(), inFlight);
    }

    /** When the victim was killed, and how many requests it had in flight then. */
    private record Kill(long atNanos, int inFlight) {
    }

    private static void await(List<Future<?>> futures) throws InterruptedException {
        for (Future<?> f : futures) {
            try {
                f.get();
            } catch (java.util.concurrent.ExecutionException e) {
                throw new IllegalStateException("a scale-out client failed: " + e.getCause(), e.getCause());
            }
        }
    }

    private static void requireBefore(long deadline, String what) {
        if (System.nanoTime() > deadline) {
            throw new IllegalStateException("timed out waiting for " + what);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}

package org.chartstream.app.ops;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.chartstream.core.store.HybridStore;
import org.chartstream.core.store.TableRef;
import org.chartstream.query.admission.AdmissionControl;
import org.chartstream.retrieval.QueryPipeline;
import org.chartstream.runtime.PipelineRuntime;
import org.chartstream.schemas.IngestTableStatus;
import org.chartstream.schemas.Topics;
import org.chartstream.schemas.unreadable.UnreadableRecordCounts;

/**
 * The pipeline's meters: query stage latencies and outcomes, admission, Kafka consumer lag (both topologies' and the
 * index materializer's client metrics) and per table the generation readers see, the staged one and the rows.
 * Names and tags carry stages, tables and counts only, never record data.
 */
final class PipelineMetrics implements AutoCloseable {
    static final String STAGE_TIMER = "chartstream.query.stage";
    private final MeterRegistry registry;
    private final List<AutoCloseable> bound = new ArrayList<>();
    private volatile ConsumerLag lag;
    private volatile UnreadableRecordCounts unreadable;
    private final java.util.Set<UnreadableRecordCounts.Source> unreadableMeters = java.util.concurrent.ConcurrentHashMap.newKeySet();

    PipelineMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Binds what the runtime's role runs: an ingest-only process has no query side, store or materializer. */
    void bind(PipelineRuntime runtime) {
        if (runtime.queryWiring() != null) {
            bindQuery(runtime.queryWiring().pipeline(), runtime.queryWiring().admission());
        }
        bindKafka(runtime);
        List<String> groups = new java.util.ArrayList<>();
        if (runtime.ingestStreams() != null) {
            groups.add(PipelineRuntime.INGEST_APPLICATION_ID);
        }
        if (runtime.queryStreams() != null) {
            groups.add(PipelineRuntime.QUERY_APPLICATION_ID);
        }
        lag = new ConsumerLag(registry, runtime.bootstrapServers(), runtime.kafkaClientProperties(), groups, Topics.INDEX,
                () -> runtime.materializer() == null ? Map.of() : runtime.materializer().committedPositions());
        bound.add(lag);
        runtime.unreadableRecords().counts().register(Topics.INGEST_STATUS, IngestStatusFollower.CONSUMER_NAME);
        unreadable = runtime.unreadableRecords().counts();
        IngestStatusFollower status = new IngestStatusFollower(runtime.bootstrapServers(), runtime.kafkaClientProperties(),
                runtime.unreadableRecords());
        bound.add(status);
        bindGenerations(runtime.store(), runtime.registeredTables(), status::latest);
    }

    /**
     * Brings the values that are read on demand (consumer lag) up to date and adds a counter for every reader and topic
     * that has skipped records since the last scrape; called before each scrape.
     */
    void refresh() {
        ConsumerLag current = lag;
        if (current != null) {
            current.refresh();
        }
        UnreadableRecordCounts counts = unreadable;
        if (counts != null) {
            bindUnreadable(counts);
        }
    }

    void bindUnreadable(UnreadableRecordCounts counts) {
        for (UnreadableRecordCounts.Source source : counts.snapshot().keySet()) {
            if (unreadableMeters.add(source)) {
                FunctionCounter.builder("chartstream.unreadable.records", counts.counter(source), java.util.concurrent.atomic.AtomicLong::get)
                        .description("records of internal topics a reader could not read, dead-lettered and skipped")
                        .tags("topic", source.topic(), "consumer", source.consumer()).register(registry);
            }
        }
    }

    void bindQuery(QueryPipeline pipeline, AdmissionControl admission) {
        pipeline.addObserver(result -> {
            result.stageMs().forEach((stage, ms) -> Timer.builder(STAGE_TIMER).description("time spent in each query stage")
                    .tag("stage", stage).register(registry).record(Duration.ofMillis(ms)));
            Counter.builder("chartstream.query.answers").description("questions run through the pipeline, by outcome")
                    .tag("outcome", result.answer().outcome().name().toLowerCase(java.util.Locale.ROOT)).register(registry).increment();
        });
        Gauge.builder("chartstream.admission.in.flight", admission, AdmissionControl::inFlight)
                .description("requests running or waiting for an earlier turn").register(registry);
        Gauge.builder("chartstream.admission.oldest.in.flight.ms", admission, a -> a.oldestInFlightAgeMs(System.currentTimeMillis()))
                .description("how long the oldest request in flight has been, in ms since it was admitted (0 with none)").register(registry);
        Gauge.builder("chartstream.admission.limit", admission, AdmissionControl::limit)
                .description("requests in flight before new ones get a busy reply").register(registry);
        FunctionCounter.builder("chartstream.admission.rejected", admission, AdmissionControl::rejected)
                .description("requests answered busy because the admission limit was reached").register(registry);
    }

    private void bindKafka(PipelineRuntime runtime) {
        if (runtime.ingestStreams() != null) {
            bindKafkaClients(new KafkaStreamsMetrics(runtime.ingestStreams(), Tags.of("topology", "ingest")));
        }
        if (runtime.queryStreams() != null) {
            bindKafkaClients(new KafkaStreamsMetrics(runtime.queryStreams(), Tags.of("topology", "query")));
        }
        if (runtime.materializer() != null) {
            bindKafkaClients(new KafkaClientMetrics(runtime.materializer().consumer(), Tags.of("topology", "index-materializer")));
        }
    }

    private <B extends io.micrometer.core.instrument.binder.MeterBinder & AutoCloseable> void bindKafkaClients(B binder) {
        binder.bindTo(registry);
        bound.add(binder);
    }

    /** @param ingestStatus the ingest side's latest status per {@code source:table} (where the staged generation lives) */
    void bindGenerations(HybridStore store, List<TableRef> tables, java.util.function.Supplier<Map<String, IngestTableStatus>> ingestStatus) {
        // an ingest-only process holds no store: it reports the staged generations only
        for (TableRef ref : tables) {
            Tags tags = Tags.of("source", ref.sourceId(), "table", ref.table());
            if (store != null) {
                Gauge.builder("chartstream.generation.active", store, s -> s.activeGenerations().getOrDefault(ref, 0L))
                        .description("generation readers see (0: none published yet)").tags(tags).register(registry);
                Gauge.builder("chartstream.index.rows", store, s -> s.countRows(ref))
                        .description("rows of the table in its active generation").tags(tags).register(registry);
            }
            Gauge.builder("chartstream.generation.staged", ingestStatus, s -> {
                IngestTableStatus t = s.get().get(ref.id());
                return t == null ? 0 : t.getStagedGeneration();
            }).description("generation being built by a snapshot or re-index (0: none)").tags(tags)
                    .strongReference(true).register(registry); // the supplier is held by nothing else
        }
    }

    @Override
    public void close() {
        for (int i = bound.size() - 1; i >= 0; i--) {
            try {
                bound.get(i).close();
            } catch (Exception e) {
                // closing on shutdown: nothing left to report to
            }
        }
        bound.clear();
    }
}

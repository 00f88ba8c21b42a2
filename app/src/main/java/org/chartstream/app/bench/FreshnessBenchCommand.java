package org.chartstream.app.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.runtime.PipelineRuntime;
import org.chartstream.runtime.config.ChartstreamConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code chartstream bench freshness}: from a source commit to the change being searchable, one single-row change
 * at a time (alternately an insert and an update of the row just inserted).
 */
@Command(name = "freshness", mixinStandardHelpOptions = true,
        description = {"Start a fresh embedded pipeline on a small synthetic dataset, wait until it is searchable, then",
                "commit single-row changes in PostgreSQL one at a time and time each until the store serves it.",
                "Each change is also found by its row key on the change topic and on the index log (plain consumers,",
                "read_uncommitted and read_committed) to time its hops: source commit (Debezium source.ts_ms) -> change",
                "topic (record timestamp) -> ingest flush (upsert record timestamp, before embedding) -> index log",
                "written (read_uncommitted arrival) -> committed (read_committed arrival) -> searchable.",
                "JSON: changes, p50_ms, p99_ms, hops_ms (p50 per hop), hops_p99_ms, hops_changes (changes whose",
                "records were all seen)."})
public final class FreshnessBenchCommand implements Callable<Integer> {
    private static final int FIRST_ID = 8_000_000;

    @Spec
    CommandSpec spec;

    @Option(names = "--changes", description = "single-row changes to time, at least 200 (default: ${DEFAULT-VALUE})", defaultValue = "200")
    int changes;

    @Option(names = "--patients", description = "synthetic patients (default: ${DEFAULT-VALUE})", defaultValue = "5")
    int patients;

    @Option(names = "--json", description = "print the figures as one JSON object (the last stdout line)")
    boolean json;

    @Option(names = "--gap-ms", description = "pause before each change, in ms (default: ${DEFAULT-VALUE}: each change follows"
            + " as soon as the last is searchable, a steady stream; 1500: each change ends a quiet spell longer than the"
            + " capture's quiet time, docs/PERFORMANCE.md)", defaultValue = "0")
    long gapMs;

    @Override
    public Integer call() throws Exception {
        if (changes < 200) {
            throw new IllegalArgumentException("--changes must be at least 200");
        }
        if (gapMs < 0) {
            throw new IllegalArgumentException("--gap-ms must not be negative");
        }
        ChartstreamConfig config = PipelineBenchRuntime.config(spec);
        try (PipelineRuntime runtime = PipelineBenchRuntime.start(config, "bench-freshness", PipelineBenchRuntime.dataset(config, patients))) {
            runtime.awaitSearchable(Duration.ofMinutes(30));
            List<Long> latencies = new ArrayList<>();
            List<FreshnessHops> hops = new ArrayList<>();
            try (FreshnessRecordWatch watch = new FreshnessRecordWatch(runtime.bootstrapServers(), runtime.kafkaClientProperties(),
                    runtime.sources().get(0).topicPrefix(), "medications", FIRST_ID);
                 Connection c = runtime.connection(runtime.sourceId())) {
                String patient;
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("select patient_id from patients limit 1")) {
                    rs.next();
                    patient = rs.getString(1);
                }
                try (PreparedStatement insert = c.prepareStatement("insert into medications (medication_id, patient_id, start_date,"
                        + " rxnorm_code, description, reason_description) values (?, ?::uuid, current_date, '197361', ?, 'Hypertension')");
                     PreparedStatement update = c.prepareStatement("update medications set description = ? where medication_id = ?")) {
                    for (int i = 0; i < changes; i++) {
                        int id = FIRST_ID + i / 2;
                        String marker = "Amlodipine 5 MG Oral Tablet lot" + i + "x";
                        PreparedStatement statement = i % 2 == 0 ? insert : update;
                        if (i % 2 == 0) {
                            insert.setInt(1, id);
                            insert.setString(2, patient);
                            insert.setString(3, marker);
                        } else {
                            update.setString(1, marker);
                            update.setInt(2, id);
                        }
                        if (gapMs > 0) {
                            Thread.sleep(gapMs);
                        }
                        statement.executeUpdate();
                        long committed = System.nanoTime();
                        latencies.add(awaitServed(runtime, new RowRef(runtime.sourceId(), "medications", Integer.toString(id)), marker, committed));
                        FreshnessHops change = watch.hops(i, System.currentTimeMillis(), Duration.ofSeconds(10));
                        if (change != null) {
                            hops.add(change);
                        }
                    }
                }
            }
            latencies.sort(Long::compare);
            double p50 = PipelineBenchRuntime.percentile(latencies, 50);
            double p99 = PipelineBenchRuntime.percentile(latencies, 99);
            String hopsP50 = FreshnessHops.json(FreshnessHops.percentiles(hops, 50));
            String hopsP99 = FreshnessHops.json(FreshnessHops.percentiles(hops, 99));
            System.out.println(json
                    ? String.format(Locale.ROOT, "{\"changes\":%d, \"p50_ms\":%.0f, \"p99_ms\":%.0f, \"hops_ms\":%s, \"hops_p99_ms\":%s, \"hops_changes\":%d}",
                            latencies.size(), p50, p99, hopsP50, hopsP99, hops.size())
                    : String.format(Locale.ROOT, "%d changes: p50 %.0f ms, p99 %.0f ms (source commit to searchable)%n"
                            + "p50 per hop (ms, %d changes): %s%np99 per hop (ms): %s", latencies.size(), p50, p99, hops.size(), hopsP50, hopsP99));
        }
        return 0;
    }

    private static long awaitServed(PipelineRuntime runtime, RowRef row, String marker, long committedNanos) throws InterruptedException {
        long deadline = committedNanos + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            for (StoredChunk chunk : runtime.store().rowChunks(row)) {
                if (chunk.text().contains(marker)) {
                    return (System.nanoTime() - committedNanos) / 1_000_000;
                }
            }
            Thread.sleep(2);
        }
        runtime.checkHealthy();
        throw new IllegalStateException("a change was not searchable within 60 s");
    }
}

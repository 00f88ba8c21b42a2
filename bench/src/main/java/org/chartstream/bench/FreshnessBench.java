package org.chartstream.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.runtime.PipelineRuntime;
import org.chartstream.runtime.config.ChartstreamConfig;

/**
 * {@code bench freshness}: a fresh embedded pipeline on a small synthetic dataset, then single-row changes committed
 * in PostgreSQL one at a time (alternately an insert and an update of the row just inserted), each timed from its
 * commit until the store serves it, and its hops timed on the change topic and the index log.
 */
public final class FreshnessBench {
    private static final int FIRST_ID = 8_000_000;

    /** Commit-to-searchable latencies (ms, sorted) and the hops of the changes whose records were all seen. */
    public record Result(List<Long> latencies, List<FreshnessHops> hops) {
        public String json() {
            return String.format(Locale.ROOT, "{\"changes\":%d, \"p50_ms\":%.0f, \"p99_ms\":%.0f, \"hops_ms\":%s, \"hops_p99_ms\":%s, \"hops_changes\":%d}",
                    latencies.size(), p50(), p99(), hopsJson(50), hopsJson(99), hops.size());
        }

        public String text() {
            return String.format(Locale.ROOT, "%d changes: p50 %.0f ms, p99 %.0f ms (source commit to searchable)%n"
                    + "p50 per hop (ms, %d changes): %s%np99 per hop (ms): %s", latencies.size(), p50(), p99(), hops.size(), hopsJson(50),
                    hopsJson(99));
        }

        private double p50() {
            return PipelineBenchRuntime.percentile(latencies, 50);
        }

        private double p99() {
            return PipelineBenchRuntime.percentile(latencies, 99);
        }

        private String hopsJson(double p) {
            return FreshnessHops.json(FreshnessHops.percentiles(hops, p));
        }
    }

    private FreshnessBench() {
    }

    /** Times {@code changes} changes on a pipeline of {@code patients} patients, each after a pause of {@code gapMs}. */
    public static Result run(ChartstreamConfig config, int changes, int patients, long gapMs) throws Exception {
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
            return new Result(latencies, hops);
        }
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

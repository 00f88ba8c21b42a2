package org.chartstream.app.bench;

import org.chartstream.bench.FreshnessBench;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

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
public final class FreshnessBenchCommand extends BenchSubcommand {

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
        FreshnessBench.Result result = FreshnessBench.run(config(), changes, patients, gapMs);
        System.out.println(json ? result.json() : result.text());
        return 0;
    }
}

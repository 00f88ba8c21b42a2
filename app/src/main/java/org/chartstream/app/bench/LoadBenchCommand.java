package org.chartstream.app.bench;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.chartstream.bench.LoadBench;
import org.chartstream.bench.LoadLevel;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code chartstream bench load}: admission, latency and loss at rising concurrency through the request topic. */
@Command(name = "load", mixinStandardHelpOptions = true, description = {
        "Builds a Lucene index of N clustered 384-d chunks and starts the embedded",
        "broker and the query topology (no LLM: extractive answers) with the configured",
        "adaptive admission limit (between query.admission-min-limit and",
        "query.admission-limit). Then, for each client count C, C clients each post R",
        "requests one after another on chartstream.requests and wait for the final",
        "reply. A busy reply ends its request; a request without a final reply within",
        "the timeout is lost. Per level: rps = non-busy final replies per second,",
        "p50_ms/p99_ms = their latency, busy and busy_p50_ms/busy_p99_ms = the busy",
        "replies and their latency, busy_hops_p99_ms = p99 of a busy reply's hops",
        "(request: sent -> turned away on the stream thread; reply: -> received),",
        "lost, admission_limit = the limit at the level's end. Progress on stderr.",
        "Last stdout line with --json:",
        "{\"levels\":[{\"clients\":…, \"rps\":…, \"p50_ms\":…, \"p99_ms\":…, \"busy\":…,",
        "\"busy_p50_ms\":…, \"busy_p99_ms\":…, \"busy_hops_p99_ms\":{\"request\":…, \"reply\":…},",
        "\"lost\":…, \"admission_limit\":…}, …]}"})
public final class LoadBenchCommand extends BenchSubcommand {

    @Option(names = "--chunks", description = "chunks in the index (default: ${DEFAULT-VALUE})", defaultValue = "10000")
    int chunks;

    @Option(names = "--clients", split = ",", description = "concurrency levels, comma-separated, run in order (default: ${DEFAULT-VALUE})",
            defaultValue = "1,8,32,64")
    List<Integer> clients = new ArrayList<>();

    @Option(names = "--requests", description = "requests per client at each level (default: ${DEFAULT-VALUE})", defaultValue = "10")
    int requests;

    @Option(names = "--timeout-s", description = "seconds to wait for a final reply before a request counts as lost (default: ${DEFAULT-VALUE})",
            defaultValue = "60")
    int timeoutSeconds;

    @Mixin
    QueryIndexOptions index;

    @Option(names = "--json", description = "print the figures as one JSON line")
    boolean json;

    @Override
    public Integer call() throws Exception {
        if (chunks < 1 || requests < 1 || timeoutSeconds < 1 || clients.isEmpty() || clients.stream().anyMatch(c -> c < 1)) {
            spec.commandLine().getErr().println("--chunks, --requests, --timeout-s and every --clients value must be at least 1");
            return 2;
        }
        PrintWriter progress = new PrintWriter(System.err, true);
        List<LoadLevel> levels = LoadBench.run(config(), chunks, clients, requests,
                Duration.ofSeconds(timeoutSeconds), index.indexDir, index.sharedReplyReader, progress);
        if (json) {
            System.out.println(LoadLevel.levelsJson(levels));
        } else {
            for (LoadLevel l : levels) {
                System.out.println(String.format(Locale.ROOT, "%d client(s), %d requests: %.2f answered/s, p50 %.1f ms, p99 %.1f ms,"
                        + " %d busy (p50 %.1f ms, p99 %.1f ms), %d lost, admission limit %d", l.clients(), l.requests(), l.rps(),
                        l.p50Ms(), l.p99Ms(), l.busy(), l.busyP50Ms(), l.busyP99Ms(), l.lost(), l.admissionLimit()));
            }
        }
        return 0;
    }
}

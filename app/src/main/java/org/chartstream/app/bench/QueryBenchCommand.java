package org.chartstream.app.bench;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import org.chartstream.bench.QueryBench;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code chartstream bench query}: request → final reply latency through the query topology, no LLM. */
@Command(name = "query", mixinStandardHelpOptions = true, description = {
        "Builds a Lucene index of N clustered 384-d chunks, starts the embedded broker and the query topology (no LLM:",
        "extractive answers), and measures request -> final reply with C concurrent clients, with the query topology's",
        "configured settings (query.poll-ms, query.commit-interval-ms) and admission fixed at 256. Last stdout line with",
        "--json: {\"chunks\":…, \"clients\":…, \"p50_ms\":…, \"p95_ms\":…, \"stages_ms\":{…}, \"requests_per_s\":…}; with",
        "several client counts {\"runs\":[…]} holding one such object per count (each also on stderr as it ends)."})
public final class QueryBenchCommand extends BenchSubcommand {

    @Option(names = "--chunks", description = "chunks in the index (default: ${DEFAULT-VALUE})", defaultValue = "100000")
    int chunks;

    @Option(names = "--clients", split = ",", description = "concurrent clients, comma-separated for several runs (default: ${DEFAULT-VALUE})", defaultValue = "1")
    List<Integer> clients = new ArrayList<>();

    @Option(names = "--requests", description = "requests per client (default: ${DEFAULT-VALUE})", defaultValue = "50")
    int requests;

    @Mixin
    QueryIndexOptions index;

    @Option(names = "--json", description = "print the figures as JSON lines")
    boolean json;

    @Override
    public Integer call() throws Exception {
        PrintWriter progress = new PrintWriter(System.err, true);
        List<QueryBench.Result> results = QueryBench.run(config(), chunks, clients, requests, index.indexDir, index.sharedReplyReader, progress);
        if (json) {
            System.out.println(QueryBench.lastLine(results));
            return 0;
        }
        for (QueryBench.Result r : results) {
            System.out.println(String.format(java.util.Locale.ROOT,
                    "%,d chunks, %d client(s): p50 %.1f ms, p95 %.1f ms, %.2f requests/s; stage medians %s; hop medians %s",
                    r.chunks(), r.clients(), r.p50Ms(), r.p95Ms(), r.rps(), r.stageP50Ms(), r.hopP50Ms()));
        }
        return 0;
    }
}

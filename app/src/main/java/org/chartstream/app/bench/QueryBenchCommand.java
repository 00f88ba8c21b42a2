package org.chartstream.app.bench;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.chartstream.evaluation.bench.QueryBench;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code chartstream bench query}: request → final reply latency through the query topology, no LLM. */
@Command(name = "query", mixinStandardHelpOptions = true, description = {
        "Builds a Lucene index of N clustered 384-d chunks, starts the embedded broker and the query topology (no LLM:",
        "extractive answers), and measures request -> final reply with C concurrent clients. Last stdout line with",
        "--json: {\"chunks\":…, \"clients\":…, \"p50_ms\":…, \"p95_ms\":…, \"stages_ms\":{…}} (one line per client count)."})
public final class QueryBenchCommand implements Callable<Integer> {
    @Option(names = "--chunks", description = "chunks in the index (default: ${DEFAULT-VALUE})", defaultValue = "100000")
    int chunks;

    @Option(names = "--clients", split = ",", description = "concurrent clients, comma-separated for several runs (default: ${DEFAULT-VALUE})", defaultValue = "1")
    List<Integer> clients = new ArrayList<>();

    @Option(names = "--requests", description = "requests per client (default: ${DEFAULT-VALUE})", defaultValue = "50")
    int requests;

    @Option(names = "--json", description = "print the figures as JSON lines")
    boolean json;

    @Override
    public Integer call() throws Exception {
        PrintWriter progress = new PrintWriter(System.err, true);
        for (QueryBench.Result r : QueryBench.run(chunks, clients, requests, progress)) {
            System.out.println(json ? r.toJson() : String.format(java.util.Locale.ROOT,
                    "%,d chunks, %d client(s): p50 %.1f ms, p95 %.1f ms, %.2f requests/s; stage medians %s",
                    r.chunks(), r.clients(), r.p50Ms(), r.p95Ms(), r.rps(), r.stageP50Ms()));
        }
        return 0;
    }
}

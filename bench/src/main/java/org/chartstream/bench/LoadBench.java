package org.chartstream.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.chartstream.client.QueryClient;
import org.chartstream.query.admission.AdmissionControl;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;
import org.chartstream.schemas.Topics;

/**
 * Load on the real query topology (the same set-up as {@link QueryBench}) at rising concurrency, with the configured
 * adaptive admission limit in force ({@code query.admission-min-limit} to {@code query.admission-limit}; it carries
 * over from one level to the next, as in a running service): C clients each post R requests one after another
 * through {@code chartstream.requests} and wait for each final reply. A {@code busy} reply ends that request (the
 * client does not retry it); a request with no final reply within the timeout is lost. The clients either each read
 * the reply topic with a consumer of their own (every reply then reaches every client) or share one client and its
 * one reply reader, as one upstream service with C requests in flight would.
 */
public final class LoadBench {
    private LoadBench() {
    }

    public static List<LoadLevel> run(ChartstreamConfig config, int chunks, List<Integer> clientCounts, int requestsPerClient,
                                      Duration timeout, Path indexDir, boolean sharedReplyReader, PrintWriter progress)
            throws IOException, InterruptedException {
        return QueryBench.withTopology(config, chunks, indexDir, Map.of(), progress,
                (bootstrap, corpus, index, admission) -> {
                    List<LoadLevel> levels = new ArrayList<>();
                    for (int clients : clientCounts) {
                        progress.printf(Locale.ROOT, "%d client(s) x %d requests, admission limit %d (bounds %d-%d)...%n", clients,
                                requestsPerClient, admission.limit(), config.integer("query.admission-min-limit"),
                                config.integer("query.admission-limit"));
                        progress.flush();
                        LoadLevel level = level(bootstrap, corpus, clients, requestsPerClient, timeout, admission, sharedReplyReader);
                        progress.println(level.toJson());
                        progress.flush();
                        levels.add(level);
                    }
                    return levels;
                });
    }

    private static LoadLevel level(String bootstrap, ClusteredCorpus corpus, int clients, int perClient, Duration timeout,
                                   AdmissionControl admission, boolean sharedReplyReader) throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        List<LoadLevel.Outcome> outcomes = Collections.synchronizedList(new ArrayList<>());
        List<QueryClient> connected = Collections.synchronizedList(new ArrayList<>());
        try {
            // connect every client first, so that the measured window holds requests only
            List<Future<?>> connecting = new ArrayList<>();
            for (int c = 0; c < (sharedReplyReader ? 1 : clients); c++) {
                connecting.add(pool.submit(() -> connected.add(new QueryClient(bootstrap, Topics.REPLIES))));
            }
            await(connecting);
            long start = System.nanoTime();
            List<Future<?>> running = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                QueryClient client = connected.get(sharedReplyReader ? 0 : c);
                int first = c * perClient;
                running.add(pool.submit(() -> {
                    for (int i = 0; i < perClient; i++) {
                        outcomes.add(send(client, QueryBench.request(corpus.queryText(first + i), "load"), timeout));
                    }
                    return null;
                }));
            }
            await(running);
            return LoadLevel.of(clients, outcomes, (System.nanoTime() - start) / 1e9, admission.limit());
        } finally {
            connected.forEach(QueryClient::close);
            pool.shutdownNow();
        }
    }

    private static LoadLevel.Outcome send(QueryClient client, QueryRequest request, Duration timeout) {
        long t = System.nanoTime();
        long sentMs = System.currentTimeMillis();
        try {
            List<ReplyEvent> events = client.ask(request, timeout, e -> { });
            double ms = (System.nanoTime() - t) / 1e6;
            ReplyEvent last = events.get(events.size() - 1);
            return new LoadLevel.Outcome(last.getType() == ReplyType.BUSY ? LoadLevel.Ending.BUSY : LoadLevel.Ending.ANSWERED, ms,
                    last.getTsMs() - sentMs);
        } catch (IllegalStateException noFinalReply) {
            return new LoadLevel.Outcome(LoadLevel.Ending.LOST, timeout.toMillis(), 0);
        }
    }

    private static void await(List<Future<?>> futures) throws InterruptedException {
        for (Future<?> f : futures) {
            try {
                f.get();
            } catch (java.util.concurrent.ExecutionException e) {
                throw new IllegalStateException("a load client failed: " + e.getCause().getMessage(), e.getCause());
            }
        }
    }
}

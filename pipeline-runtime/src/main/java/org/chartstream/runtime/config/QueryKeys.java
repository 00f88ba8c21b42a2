package org.chartstream.runtime.config;

import java.util.Map;
import org.chartstream.query.QueryTransportSettings;
import org.chartstream.retrieval.QuerySettings;
import org.chartstream.retrieval.embed.SentenceVectors;
import org.chartstream.retrieval.fusion.FusionSettings;
import org.chartstream.retrieval.gate.GateThresholds;
import org.chartstream.retrieval.search.QuestionTermWeights;

/**
 * The query side's configuration keys ({@code query.*}, {@code gate.*}, {@code rerank.*}, {@code llm.*}): their
 * defaults and descriptions, their checks, and the typed settings read from them. A key that chooses behaviour is read
 * as an enum once here; an unknown value is refused naming the key ({@link ChartstreamConfig#choice}).
 */
public final class QueryKeys {

    /** {@code query.compute-priority}: the Java priority of the pipeline's worker and search threads. */
    public enum ComputePriority { LOW, NORMAL }

    private QueryKeys() {
    }

    static void define(Map<String, String[]> k) {
        k.put("query.per-side", new String[] {"50", "candidates per search side"});
        k.put("query.fusion", new String[] {"adaptive", "adaptive: min-max normalised scores, the vector weight chosen per query from the two lists (default; see docs/EVALUATION.md) | score: the same with the fixed query.vector-weight | rrf: reciprocal rank fusion"});
        k.put("query.sentence-vectors", new String[] {"clauses", "a question of several sentences is also searched by each sentence's"
                + " embedding (one model call with the question's, one more vector search per sentence), and a chunk's vector score is"
                + " its best cosine over the question and the sentences kept: standout: the sentences whose own list's first row stands"
                + " out at least as far as the question's (docs/EVALUATION.md, session 11) | clauses (default; session 12): the same over"
                + " the question's clauses (a sentence also split where \"and\" or \"or\" opens another question) | max: every sentence | questions:"
                + " the sentences that ask | blend: ½ · the question's cosine + ½ · the best sentence's | mean: one search with the mean"
                + " of their unit vectors | off: the whole question's embedding only. A question of one sentence is searched alike by"
                + " every rule"});
        k.put("query.term-weights", new String[] {"embedding", "embedding (default; docs/EVALUATION.md, session 21): each word of the"
                + " lexical query weighted by (its embedding's cosine with the question's / the largest of the question's words)^0.5, so"
                + " a question's boilerplate counts less than what it asks about (one more model call per question, for its words) |"
                + " off: every word at weight 1. A store that cannot weigh terms (DocumentDB) searches the words as asked"});
        k.put("query.vector-weight", new String[] {"0.4", "weight of the vector side in query.fusion=score (lexical gets the rest)"});
        k.put("query.rrf-k", new String[] {"60", "reciprocal rank fusion constant"});
        k.put("query.top-k", new String[] {"6", "passages cited by default"});
        k.put("query.cohort-cap", new String[] {"500", "most rows a cohort answer lists (a question for every patient or record with one exact code, drug or condition); more matching rows make the answer partial, said in the reply"});
        k.put("gate.threshold.bi-encoder", new String[] {"0.43", "refuse a pointed question when the best bi-encoder cosine is lower (the scorer when no cross-encoder is configured; calibrated for all-minilm-l6-v2 by `chartstream calibrate`, docs/EVALUATION.md)"});
        k.put("gate.threshold.cross-encoder", new String[] {"0.30", "the same on a cross-encoder's sigmoid score"});
        k.put("rerank.model-dir", new String[] {"", "folder with a cross-encoder's model.onnx and tokenizer.json (e.g. models/bge-reranker-v2-m3); empty: bi-encoder cosine fallback"});
        k.put("llm.base-url", new String[] {"", "local OpenAI-compatible endpoint (Foundry Local, Ollama, llama.cpp server, vLLM), e.g. http://127.0.0.1:11434/v1; empty: no rewrite, extractive answers"});
        k.put("llm.model", new String[] {"local-model", "model name sent to the endpoint"});
        k.put("llm.connect-timeout-ms", new String[] {"2000", "connect timeout to the endpoint"});
        k.put("llm.read-timeout-ms", new String[] {"30000", "longest silence from the endpoint"});
        k.put("llm.deadline-ms", new String[] {"120000", "longest time for one call"});
        k.put("query.admission-limit", new String[] {"32", "upper bound of the admission limit: requests in flight (running or waiting)"
                + " before new ones get a busy reply. The limit adapts to measured latency (AIMD) between query.admission-min-limit and this"});
        k.put("query.admission-min-limit", new String[] {"2", "lower bound of the adaptive admission limit (at most query.admission-limit;"
                + " a larger value is read as query.admission-limit, so equal bounds or admission-limit 1 give a fixed limit)"});
        k.put("query.turns-past-limit", new String[] {"8", "at the admission limit, a turn whose conversation has at most this many"
                + " turns in flight is still admitted and waits behind them, so that its busy reply cannot overtake their answers (0: never)"});
        k.put("query.commit-interval-ms", new String[] {"1000", "Kafka Streams commit interval of the query topology. Replies do not wait"
                + " for it (they leave outside the transaction); it bounds what a crash re-runs and re-sends, and each commit blocks the"
                + " stream thread (1000 against 100: busy replies about 2x faster under bench load, docs/PERFORMANCE.md)"});
        k.put("query.poll-ms", new String[] {"5", "longest wait of the query topology's stream thread for new requests before it sends the"
                + " replies of finished runs (Kafka Streams poll.ms)"});
        k.put("query.workers", new String[] {"2", "threads running the retrieval pipeline"});
        k.put("query.compute-priority", new String[] {"normal", "normal: the pipeline's worker and search threads have the priority of"
                + " every other thread; low: the lowest Java priority (nice 4 on Linux when the JVM runs with -XX:ThreadPriorityPolicy=1,"
                + " as ./chartstream starts it), so that polling, busy replies and reply sending get a core first under overload. On a"
                + " host shared with other busy processes low yields to them too, which cost throughput in the only runs so far"
                + " (docs/PERFORMANCE.md, session 10)"});
        k.put("query.partitions", new String[] {"1", "partitions of the request topic chartstream.requests (keyed by conversation id), created"
                + " with it by the first query process: the most query processes that share the requests (docs/SCALING.md). Fixed once"
                + " created: more partitions would move conversations away from their memory, so a query process refuses to start"
                + " when the topic has another count"});
        k.put("query.max-question-chars", new String[] {"4000", "longer questions (in Unicode code points) get an error reply"});
        k.put("query.reply-topics", new String[] {"chartstream.replies,chartstream.replies.*,chartstream.replay.*", "topics a request's reply-to header may name:"
                + " exact names, or prefixes ending in *; the pipeline's own topics (chartstream.* outside the reply namespaces, changelog and"
                + " repartition topics, the sources' Debezium topics, __*) are refused even when listed"});
        k.put("query.request-id-window-ms", new String[] {"86400000", "how long an admitted request id is remembered: a repeat with the same"
                + " content gets the original final reply again, one with other content an error"});
    }

    static void validate(ChartstreamConfig c) {
        for (String key : new String[] {"query.per-side", "query.rrf-k", "query.top-k", "query.cohort-cap", "query.request-id-window-ms",
                "query.max-question-chars", "query.admission-limit", "query.admission-min-limit", "query.commit-interval-ms",
                "query.poll-ms", "query.workers", "query.partitions", "llm.connect-timeout-ms", "llm.read-timeout-ms", "llm.deadline-ms"}) {
            c.positive(key);
        }
        c.nonNegative("query.turns-past-limit");
        if (c.integer("query.top-k") > QuerySettings.MAX_TOP_K) {
            throw c.bad("query.top-k", "must be at most " + QuerySettings.MAX_TOP_K);
        }
        computePriority(c);
        double weight = c.decimal("query.vector-weight");
        if (weight < 0 || weight > 1) {
            throw c.bad("query.vector-weight", "must be between 0 and 1");
        }
        for (String gateKey : new String[] {"gate.threshold.bi-encoder", "gate.threshold.cross-encoder"}) {
            double gate = c.decimal(gateKey);
            if (gate < -1 || gate > 1) {
                throw c.bad(gateKey, "must be between -1 and 1");
            }
        }
        querySettings(c);
    }

    /** The retrieval stages' settings. */
    public static QuerySettings querySettings(ChartstreamConfig c) {
        QuerySettings d = QuerySettings.defaults();
        return new QuerySettings((int) c.integer("query.per-side"), c.choice("query.sentence-vectors", SentenceVectors.class),
                c.choice("query.term-weights", QuestionTermWeights.class),
                new FusionSettings(c.choice("query.fusion", FusionSettings.Rule.class), (int) c.integer("query.rrf-k"),
                        c.decimal("query.vector-weight")),
                new GateThresholds(c.decimal("gate.threshold.bi-encoder"), c.decimal("gate.threshold.cross-encoder")),
                d.maxPassageChars(), (int) c.integer("query.cohort-cap"));
    }

    /** The query topology's limits on a request and its worker threads. */
    public static QueryTransportSettings transport(ChartstreamConfig c) {
        return new QueryTransportSettings((int) c.integer("query.max-question-chars"), QuerySettings.MAX_TOP_K,
                (int) c.integer("query.workers"));
    }

    public static ComputePriority computePriority(ChartstreamConfig c) {
        return c.choice("query.compute-priority", ComputePriority.class);
    }
}

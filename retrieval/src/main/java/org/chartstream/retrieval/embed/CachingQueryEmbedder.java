package org.chartstream.retrieval.embed;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An LRU cache of query vectors keyed by the normalised query (case and whitespace folded). All cache misses of one
 * call are embedded in one batch. Thread-safe.
 */
public final class CachingQueryEmbedder implements QueryEmbedder {
    public static final int DEFAULT_CAPACITY = 1024;
    private final QueryEmbedder model;
    private final Map<String, float[]> cache;
    private final AtomicLong hits = new AtomicLong();
    private final AtomicLong misses = new AtomicLong();

    public CachingQueryEmbedder(QueryEmbedder model, int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("query embedding cache capacity must be at least 1, got " + capacity);
        }
        this.model = model;
        this.cache = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, float[]> eldest) {
                return size() > capacity;
            }
        };
    }

    public static String normalise(String query) {
        return query.strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
    }

    @Override
    public String modelId() {
        return model.modelId();
    }

    @Override
    public float[][] embedQueries(List<String> questions) {
        float[][] out = new float[questions.size()][];
        List<String> missing = new ArrayList<>();
        synchronized (cache) {
            for (int i = 0; i < questions.size(); i++) {
                out[i] = cache.get(normalise(questions.get(i)));
                if (out[i] == null && !missing.contains(normalise(questions.get(i)))) {
                    missing.add(normalise(questions.get(i)));
                }
            }
        }
        hits.addAndGet(questions.size() - missing.size());
        misses.addAndGet(missing.size());
        if (!missing.isEmpty()) {
            float[][] fresh = model.embedQueries(missing);
            synchronized (cache) {
                for (int m = 0; m < missing.size(); m++) {
                    cache.put(missing.get(m), fresh[m]);
                }
            }
            for (int i = 0; i < questions.size(); i++) {
                if (out[i] == null) {
                    out[i] = fresh[missing.indexOf(normalise(questions.get(i)))];
                }
            }
        }
        return out;
    }

    public long hits() {
        return hits.get();
    }

    public long misses() {
        return misses.get();
    }
}

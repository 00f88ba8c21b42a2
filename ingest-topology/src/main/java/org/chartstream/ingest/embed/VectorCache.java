package org.chartstream.ingest.embed;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The vectors of the texts a process embedded most recently, at most {@code capacity} of them (least recently used
 * leaves first): a text met again is not embedded again. Rows whose embedding policy names fields share their embed
 * text (every result of one lab test), so a snapshot of such a table runs the model once per distinct text, not once
 * per row; a row-text policy gains where texts repeat (a row written to the active and a staged generation). The
 * model is deterministic for one text per call ({@link EmbeddingBatch}), so a cached vector is the vector the model
 * would give. One process runs one model: the key is the text alone. Shared by the process's embedding tasks.
 */
public final class VectorCache {
    /** Texts kept: 4096 vectors of 384 floats are about 6 MB. */
    public static final int DEFAULT_CAPACITY = 4096;

    private final LinkedHashMap<String, float[]> vectors;
    private long hits;
    private long misses;

    /** @param capacity texts kept; 0 keeps none (every text is embedded, as before the cache) */
    public VectorCache(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must not be negative, got " + capacity);
        }
        this.vectors = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, float[]> eldest) {
                return size() > capacity;
            }
        };
    }

    /** The vector kept for {@code text}, or null (counted as a hit or a miss). */
    public synchronized float[] get(String text) {
        float[] v = vectors.get(text);
        if (v == null) {
            misses++;
        } else {
            hits++;
        }
        return v;
    }

    /** Whether {@code text} is kept (neither counted nor made more recent). */
    public synchronized boolean holds(String text) {
        return vectors.containsKey(text);
    }

    public synchronized void put(String text, float[] vector) {
        vectors.put(text, vector);
    }

    public synchronized int size() {
        return vectors.size();
    }

    /** Look-ups that found their text. */
    public synchronized long hits() {
        return hits;
    }

    /** Look-ups that did not (each one a model call). */
    public synchronized long misses() {
        return misses;
    }
}

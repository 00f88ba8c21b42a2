package org.chartstream.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.SearchHit;
import org.chartstream.bench.ClusteredCorpus;
import org.chartstream.bench.StoreBench;
import org.chartstream.store.lucene.LuceneHybridStore;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Each search side of the query path alone, one thread, on a {@code bench query} index (a copy: opening the store
 * opens its writer) with that bench's questions: the vector side (HNSW walk over the index's segments, full-precision
 * rescoring, the hits' stored fields and vectors) and the lexical side (row BM25, the rows' chunks, their stored
 * fields), {@value #PER_SIDE} hits each as the pipeline asks for. Run with {@code -p indexDir=<copy of the index>}.
 * Longer warm-up than the suite's: an operation takes milliseconds, so 2 × 1 s runs too few of them for the JIT to
 * have compiled the search path before measuring.
 */
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 2)
public class SearchSideBenchmark extends SuiteSettings {
    /** The pipeline's {@code query.per-side} default. */
    static final int PER_SIDE = 50;
    /** Distinct questions cycled through, as many as a {@code bench query --clients 1,8 --requests 30} run asks. */
    static final int QUESTIONS = 270;

    @Param({""})
    public String indexDir;

    @Param({"100000"})
    public int chunks;

    private LuceneHybridStore store;
    private float[][] vectors;
    private String[] texts;
    private int next;

    @Setup
    public void setUp() {
        if (indexDir.isEmpty() || !Files.isDirectory(Path.of(indexDir))) {
            throw new IllegalArgumentException("-p indexDir= must name a copy of a bench query index of " + chunks + " chunks");
        }
        StoreBench.Settings s = StoreBench.Settings.defaults(chunks);
        ClusteredCorpus corpus = new ClusteredCorpus(chunks, s.dimension(), s.clusters(), s.noise(), s.seed());
        vectors = new float[QUESTIONS][];
        texts = new String[QUESTIONS];
        for (int j = 0; j < QUESTIONS; j++) {
            vectors[j] = corpus.queryVector(j);
            texts[j] = corpus.queryText(j);
        }
        store = LuceneHybridStore.open(Path.of(indexDir));
    }

    @TearDown
    public void tearDown() {
        store.close();
    }

    private int question() {
        next = (next + 1) % QUESTIONS;
        return next;
    }

    @Benchmark
    public List<SearchHit> vectorSide() {
        return store.vectorSearch(vectors[question()], PER_SIDE, RetrievalFilter.NONE);
    }

    @Benchmark
    public List<SearchHit> lexicalSide() {
        return store.lexicalSearch(texts[question()], PER_SIDE, RetrievalFilter.NONE);
    }
}

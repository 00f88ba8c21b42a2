package org.chartstream.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.SearchHit;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.core.store.TableRef;
import org.chartstream.store.lucene.LuceneHybridStore;

/**
 * Builds an embedded Lucene store of a synthetic {@link ClusteredCorpus} through the {@code HybridStore} port (the
 * same code path the materialiser uses: row upserts from several threads, a commit per batch, each commit followed by
 * a near-real-time refresh), then measures vector, lexical and patient-filtered vector search latency, and recall@10
 * of both vector searches against an exact scan of the same vectors.
 */
public final class StoreBench {

  /** Recall below this many queries is too noisy to report. */
  public static final int MIN_QUERIES = 200;

  static final int K = 10;
  static final String SOURCE_ID = "bench";
  static final long GENERATION = 1;

  private StoreBench() {}

  /**
   * @param chunks chunks to index (one chunk per row)
   * @param dimension vector dimension
   * @param clusters cluster centroids of the corpus
   * @param noise per-component noise around a centroid (see {@link ClusteredCorpus})
   * @param queries measured queries per search kind (each also gets an exact-scan ground truth)
   * @param warmupQueries unmeasured queries per search kind, run first
   * @param threads indexing threads
   * @param commitEvery chunks per committed batch
   * @param seed corpus seed
   * @param directory where to build the index (must be empty or absent); {@code null} for a temporary directory
   *     that is deleted afterwards
   */
  public record Settings(int chunks, int dimension, int clusters, double noise, int queries, int warmupQueries,
      int threads, int commitEvery, long seed, Path directory) {

    public Settings {
      if (chunks < K) {
        throw new IllegalArgumentException("--chunks must be at least " + K);
      }
      if ((long) chunks * dimension > Integer.MAX_VALUE - 16) {
        throw new IllegalArgumentException("chunks x dimension must fit one Java array (the exact-scan copy)");
      }
      if (queries < MIN_QUERIES) {
        throw new IllegalArgumentException("--queries must be at least " + MIN_QUERIES + " for a stable recall");
      }
      if (threads < 1 || commitEvery < 1 || warmupQueries < 0) {
        throw new IllegalArgumentException("--threads and --commit-every must be positive");
      }
    }

    public static Settings defaults(int chunks) {
      return new Settings(chunks, 384, 1_000, 0.04, 500, 100, 2, 50_000, 42L, null);
    }
  }

  /** What one run measured. Latencies are per query, in milliseconds, single query thread. */
  public record Result(int chunks, double knnP50Ms, double knnRecallAt10, double bm25P50Ms, double filteredKnnP50Ms,
      double filteredKnnRecallAt10, double exactScanP50Ms, double knnP95Ms, double bm25P95Ms,
      double filteredKnnP95Ms, int queries, int dimension, int clusters, int threads, double indexSeconds,
      double mergeWaitSeconds, int segments, long indexBytes, IndexFootprint footprint, double heapMb,
      String vectorFormat, String vectorImplementation, String jvm, String lucene) {

    /** Approximate kNN latency as a share of the exact scan's, both measured in this run. */
    public double knnToExactRatio() {
      return exactScanP50Ms == 0 ? 0 : knnP50Ms / exactScanP50Ms;
    }

    /** One JSON object. */
    public String toJson() {
      return String.format(Locale.ROOT,
          "{\"chunks\":%d, \"knn_p50_ms\":%.3f, \"knn_p95_ms\":%.3f, \"knn_recall_at_10\":%.4f,"
              + " \"exact_scan_p50_ms\":%.3f, \"knn_to_exact_ratio\":%.4f,"
              + " \"filtered_knn_p50_ms\":%.3f, \"filtered_knn_p95_ms\":%.3f, \"filtered_knn_recall_at_10\":%.4f,"
              + " \"bm25_p50_ms\":%.3f, \"bm25_p95_ms\":%.3f, \"queries\":%d,"
              + " \"dimension\":%d, \"clusters\":%d, \"index_threads\":%d, \"index_s\":%.1f,"
              + " \"merge_wait_s\":%.1f, \"segments\":%d, \"index_mb\":%.1f, \"heap_mb\":%.1f,"
              + " \"float32_vectors_mb\":%.1f, \"raw_vector_files_mb\":%.1f, \"quantized_vector_files_mb\":%.1f,"
              + " \"hnsw_graph_files_mb\":%.1f, \"vector_format\":\"%s\", \"vector_implementation\":\"%s\","
              + " \"jvm\":\"%s\", \"lucene\":\"%s\"}",
          chunks, knnP50Ms, knnP95Ms, knnRecallAt10, exactScanP50Ms, knnToExactRatio(), filteredKnnP50Ms,
          filteredKnnP95Ms, filteredKnnRecallAt10, bm25P50Ms, bm25P95Ms, queries, dimension, clusters, threads,
          indexSeconds, mergeWaitSeconds, segments, indexBytes / 1e6, heapMb,
          (double) chunks * dimension * Float.BYTES / 1e6, footprint.rawVectorBytes() / 1e6,
          footprint.quantizedVectorBytes() / 1e6, footprint.graphBytes() / 1e6, jsonText(vectorFormat),
          jsonText(vectorImplementation), jsonText(jvm), jsonText(lucene));
    }

    private static String jsonText(String s) {
      return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    public String toText() {
      return String.format(Locale.ROOT,
          "chunks                 %,d (%d-d, %d clusters), indexed with %d threads in %.1f s (+%.1f s merges)%n"
              + "index                  %d segments, %.1f MB (vectors: float32 %.1f MB, int8 %.1f MB, graph %.1f MB);"
              + " heap %.1f MB%n"
              + "vectors                %s; %s; Lucene %s on %s%n"
              + "kNN k=10               p50 %.3f ms  p95 %.3f ms  recall@10 %.4f%n"
              + "patient-filtered kNN   p50 %.3f ms  p95 %.3f ms  recall@10 %.4f%n"
              + "BM25 top 10            p50 %.3f ms  p95 %.3f ms%n"
              + "exact scan (baseline)  p50 %.3f ms (kNN / exact %.4f)%n"
              + "(%d measured queries per kind)",
          chunks, dimension, clusters, threads, indexSeconds, mergeWaitSeconds, segments, indexBytes / 1e6,
          footprint.rawVectorBytes() / 1e6, footprint.quantizedVectorBytes() / 1e6, footprint.graphBytes() / 1e6,
          heapMb, vectorFormat, vectorImplementation, lucene, jvm, knnP50Ms, knnP95Ms, knnRecallAt10, filteredKnnP50Ms, filteredKnnP95Ms, filteredKnnRecallAt10,
          bm25P50Ms, bm25P95Ms, exactScanP50Ms, knnToExactRatio(), queries);
    }
  }

  /** Runs the benchmark; progress lines go to {@code progress}. */
  public static Result run(Settings settings, PrintWriter progress) throws IOException, InterruptedException {
    boolean temporary = settings.directory() == null;
    Path dir = temporary ? Files.createTempDirectory("chartstream-bench-store") : settings.directory();
    if (!temporary && Files.isDirectory(dir)) {
      try (Stream<Path> entries = Files.list(dir)) {
        if (entries.findAny().isPresent()) {
          throw new IllegalArgumentException("--dir " + dir + " is not empty: the benchmark builds a new index");
        }
      }
    }
    try {
      return runIn(dir, settings, progress);
    } finally {
      if (temporary) {
        PipelineBenchRuntime.deleteRecursively(dir);
      }
    }
  }

  private static Result runIn(Path dir, Settings s, PrintWriter progress) throws InterruptedException {
    ClusteredCorpus corpus = new ClusteredCorpus(s.chunks(), s.dimension(), s.clusters(), s.noise(), s.seed());
    int dim = s.dimension();
    float[] vectors = new float[s.chunks() * dim];
    int[] patientOf = new int[s.chunks()];
    progress.printf(Locale.ROOT, "bench store: %,d chunks, %d-d vectors around %d clusters, %d indexing threads,"
        + " index at %s%n", s.chunks(), dim, s.clusters(), s.threads(), dir);
    progress.flush();

    try (LuceneHybridStore store = LuceneHybridStore.open(dir)) {
      long start = System.nanoTime();
      index(store, corpus, s, vectors, patientOf, progress, start);
      double indexSeconds = (System.nanoTime() - start) / 1e9;
      long mergeStart = System.nanoTime();
      store.awaitMerges();
      store.forceMerge(1);
      double mergeWaitSeconds = (System.nanoTime() - mergeStart) / 1e9;
      int segments = store.searchableSegments();
      double heapMb = heapAfterGc() / 1e6;
      progress.printf(Locale.ROOT, "indexed %,d chunks in %.1f s; merges finished %.1f s later: %d segments%n",
          s.chunks(), indexSeconds, mergeWaitSeconds, segments);
      progress.flush();
      if (store.chunkCount() != s.chunks()) {
        throw new IllegalStateException("store holds " + store.chunkCount() + " chunks, expected " + s.chunks());
      }

      progress.printf("warming up with %d queries per kind%n", s.warmupQueries());
      progress.flush();
      for (int w = 0; w < s.warmupQueries(); w++) {
        int j = s.queries() + w;
        store.vectorSearch(corpus.queryVector(j), K, RetrievalFilter.NONE);
        store.lexicalSearch(corpus.queryText(j), K, RetrievalFilter.NONE);
        store.vectorSearch(corpus.queryVector(j), K,
            RetrievalFilter.forPatient(corpus.patient(filterChunk(j, s.chunks()))));
      }

      int n = s.queries();
      double[] knn = new double[n];
      double[] exact = new double[n];
      double[] bm25 = new double[n];
      double[] filtered = new double[n];
      double recallSum = 0;
      double filteredRecallSum = 0;
      for (int j = 0; j < n; j++) {
        float[] q = corpus.queryVector(j);

        long t = System.nanoTime();
        List<SearchHit> hits = store.vectorSearch(q, K, RetrievalFilter.NONE);
        knn[j] = millisSince(t);

        t = System.nanoTime();
        int[] truth = ExactSearch.topK(vectors, dim, q, K, -1, patientOf);
        exact[j] = millisSince(t);
        recallSum += ExactSearch.recall(hits, truth);

        String query = corpus.queryText(j);
        t = System.nanoTime();
        store.lexicalSearch(query, K, RetrievalFilter.NONE);
        bm25[j] = millisSince(t);

        int patientChunk = filterChunk(j, s.chunks());
        String patient = corpus.patient(patientChunk);
        t = System.nanoTime();
        List<SearchHit> patientHits = store.vectorSearch(q, K, RetrievalFilter.forPatient(patient));
        filtered[j] = millisSince(t);
        for (SearchHit h : patientHits) {
          if (!patient.equals(h.chunk().patientKey())) {
            throw new IllegalStateException("a patient-filtered search returned another patient's chunk");
          }
        }
        int[] patientTruth = ExactSearch.topK(vectors, dim, q, K, patientOf[patientChunk], patientOf);
        filteredRecallSum += ExactSearch.recall(patientHits, patientTruth);

        if ((j + 1) % 100 == 0 || j + 1 == n) {
          progress.printf("measured %d/%d queries%n", j + 1, n);
          progress.flush();
        }
      }
      return new Result(s.chunks(), percentile(knn, 50), recallSum / n, percentile(bm25, 50),
          percentile(filtered, 50), filteredRecallSum / n, percentile(exact, 50), percentile(knn, 95),
          percentile(bm25, 95), percentile(filtered, 95), n, dim, s.clusters(), s.threads(), indexSeconds,
          mergeWaitSeconds, segments, IndexFootprint.totalBytes(dir), IndexFootprint.of(dir), heapMb, store.vectorFormat(),
          LuceneHybridStore.vectorImplementation(), Runtime.version() + " (" + System.getProperty("java.vm.vendor") + ")",
          LuceneHybridStore.luceneVersion());
    }
  }

  /** Indexes the corpus into an open store (for other benchmarks that need a populated index). */
  static void buildIndex(LuceneHybridStore store, ClusteredCorpus corpus, Settings s, PrintWriter progress)
      throws InterruptedException {
    index(store, corpus, s, new float[s.chunks() * s.dimension()], new int[s.chunks()], progress, System.nanoTime());
  }

  private static void index(LuceneHybridStore store, ClusteredCorpus corpus, Settings s, float[] vectors,
      int[] patientOf, PrintWriter progress, long start) throws InterruptedException {
    int dim = s.dimension();
    String modelId = "clustered-" + dim;
    for (String table : ClusteredCorpus.TABLES) {
      store.publish(new TableRef(SOURCE_ID, table), GENERATION);
    }
    ExecutorService workers = Executors.newFixedThreadPool(s.threads(), r -> {
      Thread t = new Thread(r, "bench-indexer");
      t.setDaemon(true);
      return t;
    });
    try {
      long reportEvery = Math.max(s.commitEvery(), s.chunks() / 20);
      long nextReport = reportEvery;
      for (int batchStart = 0; batchStart < s.chunks(); batchStart += s.commitEvery()) {
        int batchEnd = (int) Math.min((long) batchStart + s.commitEvery(), s.chunks());
        List<Future<?>> slices = new ArrayList<>();
        int sliceSize = (batchEnd - batchStart + s.threads() - 1) / s.threads();
        for (int from = batchStart; from < batchEnd; from += sliceSize) {
          int sliceFrom = from;
          int sliceTo = Math.min(from + sliceSize, batchEnd);
          slices.add(workers.submit(() -> {
            for (int i = sliceFrom; i < sliceTo; i++) {
              corpus.vector(i, vectors, i * dim);
              patientOf[i] = corpus.patientIndex(i);
              RowRef row = new RowRef(SOURCE_ID, corpus.table(i), "c" + i);
              StoredChunk chunk = new StoredChunk(StoredChunk.chunkId(row, 0, GENERATION), row, 0, 1, GENERATION,
                  corpus.text(i), Arrays.copyOfRange(vectors, i * dim, (i + 1) * dim), corpus.patient(i),
                  "bench/" + i, 0L, modelId);
              store.upsertRow(row, GENERATION, List.of(chunk));
            }
          }));
        }
        for (Future<?> slice : slices) {
          try {
            slice.get();
          } catch (ExecutionException e) {
            throw new IllegalStateException("indexing failed", e.getCause());
          }
        }
        store.commit(Map.of("bench.chunks", Integer.toString(batchEnd)));
        if (batchEnd >= nextReport || batchEnd == s.chunks()) {
          double seconds = (System.nanoTime() - start) / 1e9;
          progress.printf(Locale.ROOT, "indexed %,d/%,d chunks, %.0f s, %.0f chunks/s%n", batchEnd, s.chunks(),
              seconds, batchEnd / seconds);
          progress.flush();
          nextReport += reportEvery;
        }
      }
    } finally {
      workers.shutdownNow();
    }
  }

  /** The chunk whose patient the {@code j}-th filtered query is scoped to. */
  static int filterChunk(int j, int chunks) {
    return (int) Long.remainderUnsigned(ClusteredCorpus.mix(1, 11, j), chunks);
  }

  /** Nearest-rank percentile. */
  static double percentile(double[] values, double p) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int rank = (int) Math.ceil(p / 100 * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }

  /** Heap in use after a full collection (includes the benchmark's own float[] copy of the vectors). */
  private static long heapAfterGc() {
    Runtime rt = Runtime.getRuntime();
    System.gc();
    return rt.totalMemory() - rt.freeMemory();
  }

  private static double millisSince(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e6;
  }


}

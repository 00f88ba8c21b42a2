package org.chartstream.store.lucene;

import static org.chartstream.store.lucene.LuceneSchema.F_ROW_GEN;
import static org.chartstream.store.lucene.LuceneSchema.F_TABLE_GEN;
import static org.chartstream.store.lucene.LuceneSchema.F_VECTOR;
import static org.chartstream.store.lucene.SnapshotReads.docIds;
import static org.chartstream.store.lucene.SnapshotReads.hits;
import static org.chartstream.store.lucene.SnapshotReads.requireK;
import static org.chartstream.store.lucene.SnapshotReads.restriction;
import static org.chartstream.store.lucene.SnapshotReads.rowHeads;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.RescoreTopNQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.chartstream.core.store.ChunkChecks;
import org.chartstream.core.store.IndexedPatient;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.SearchHit;
import org.chartstream.core.store.StoreReads;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.core.store.TableRef;
import org.chartstream.core.store.TermIndex;
import org.chartstream.core.store.WeightedText;
import org.chartstream.core.store.rowset.RowSetQuery;
import org.chartstream.core.store.rowset.RowSetResult;

/**
 * The store's read side. Every call works on one {@link Snapshot} (one commit) from first to last query
 * ({@link SnapshotReads}), and never takes the writer's lock. Hits and row lookups carry each chunk's float32 vector
 * ({@link RawVectors}). Here: kNN, row lookups and counts; BM25 is {@link LuceneLexicalSearch}, exact terms
 * {@link LuceneTermLookups}, patients by name {@link LucenePatients}.
 */
final class LuceneStoreSearcher implements StoreReads {

  /**
   * HNSW candidates (the search beam) of an unfiltered search, before full-precision rescoring keeps the top k.
   * Measured with {@code bench store} (docs/history/PERFORMANCE-sessions-1-21.md, "Java 25, Lucene 10.6.0, int8 HNSW,
   * one segment"): recall@10 1.0 at 100 candidates over 5 segments of 100k int8 vectors, so 50 (five per hit of a top
   * 10) over one segment.
   */
  private static final int MIN_CANDIDATES = 50;
  /**
   * A fixed beam loses recall as the graph grows: 50 candidates gave recall@10 1.0 at 100k chunks but 0.81 at 1M (one
   * segment of int8 vectors, {@code bench store}'s clustered corpus, 2026-12-01). So the beam also grows with the
   * index, by one candidate per this many chunks (300 at 1M), up to {@link #MAX_CANDIDATES}.
   */
  private static final int CHUNKS_PER_CANDIDATE = 3_333;
  private static final int MAX_CANDIDATES = 1_000;
  private static final int CANDIDATES_PER_HIT = 5;
  /**
   * A filtered vector search scores every chunk the filter matches when they are at most this many (a patient, a
   * row, a small table): exact results, and cheaper than walking the graph around the filter. Broader filters use
   * Lucene's filtered HNSW search.
   */
  static final int EXACT_FILTER_LIMIT = 20_000;
  private final SnapshotReads reads;
  private final LuceneLexicalSearch lexical;
  private final LuceneTermLookups terms;
  private final LucenePatients patients;
  private final LuceneRowSets rowSets;

  LuceneStoreSearcher(Path path, SnapshotManager snapshots, Analyzer analyzer) {
    this.reads = new SnapshotReads(path, snapshots);
    this.lexical = new LuceneLexicalSearch(reads, analyzer);
    this.terms = new LuceneTermLookups(reads, analyzer);
    this.patients = new LucenePatients(reads);
    this.rowSets = new LuceneRowSets(reads);
  }

  @Override
  public Map<String, String> checkpoint() {
    return reads.withSnapshot(Snapshot::checkpoint);
  }

  @Override
  public Map<TableRef, Long> activeGenerations() {
    return reads.withSnapshot(Snapshot::active);
  }

  /** Whether the searched commit has an active generation. */
  boolean hasActiveTables() {
    return reads.withSnapshot(s -> !s.active().isEmpty());
  }

  /** Segments of the index that searches currently see (each has its own HNSW graph). */
  int searchableSegments() {
    return reads.withSnapshot(s -> s.reader().leaves().size());
  }

  @Override
  public List<SearchHit> vectorSearch(float[] query, int k, RetrievalFilter filter) {
    Objects.requireNonNull(query, "query");
    requireK(k);
    return reads.withSnapshot(s -> {
      if (s.activeFilter() == null || s.dimension() == 0) {
        return List.of();
      }
      if (query.length != s.dimension()) {
        throw new IllegalArgumentException("query vector dimension " + query.length
            + " does not match the store's vector dimension " + s.dimension());
      }
      ChunkChecks.vector(query, "query");
      Query restrict = restriction(s, filter);
      int candidates = candidates(k, s.searcher().getIndexReader().numDocs());
      Query graphFilter = null;
      if (!(restrict instanceof MatchAllDocsQuery)) {
        int matching = s.searcher().count(restrict);
        if (matching == 0) {
          return List.of();
        }
        // Lucene scores every filtered chunk instead of walking the graph when a segment's matches fit the candidates
        candidates = matching <= EXACT_FILTER_LIMIT ? Math.max(candidates, matching) : candidates;
        graphFilter = restrict;
      }
      // the graph is searched with int8 vectors; the candidates are re-ranked with the float32 ones
      Query knn = RescoreTopNQuery.createFullPrecisionRescorerQuery(
          new KnnFloatVectorQuery(F_VECTOR, query, candidates, graphFilter), query, F_VECTOR, candidates);
      TopDocs top = s.searcher().search(knn, k);
      // Lucene's COSINE score is (1 + cos) / 2
      return hits(s, top, score -> 2.0 * score - 1.0);
    });
  }

  /** The HNSW beam for a top k over an index of this many chunks (never fewer than k). */
  static int candidates(int k, int indexedChunks) {
    int bySize = Math.min(MAX_CANDIDATES, indexedChunks / CHUNKS_PER_CANDIDATE);
    return Math.max(Math.max(k * CANDIDATES_PER_HIT, MIN_CANDIDATES), bySize);
  }

  /** {@link LuceneLexicalSearch#lexicalSearch(String, int, RetrievalFilter)}. */
  @Override
  public List<SearchHit> lexicalSearch(String query, int k, RetrievalFilter filter) {
    return lexical.lexicalSearch(query, k, filter);
  }

  /** {@link LuceneLexicalSearch#weightedLexicalSearch}. */
  List<SearchHit> weightedLexicalSearch(List<WeightedText> query, int k, RetrievalFilter filter) {
    return lexical.weightedLexicalSearch(query, k, filter);
  }

  TermIndex termIndex() {
    return terms;
  }

  @Override
  public List<IndexedPatient> patientsNamed(Set<String> words, int limit, RetrievalFilter filter) {
    return patients.patientsNamed(words, limit, filter);
  }

  @Override
  public long countRows(TableRef table) {
    Objects.requireNonNull(table, "table");
    return reads.withSnapshot(s -> {
      Long g = s.active().get(table);
      if (g == null) {
        return 0L;
      }
      Query q = new BooleanQuery.Builder()
          .add(new TermQuery(new Term(F_TABLE_GEN, LuceneSchema.tableGenKey(table, g))), BooleanClause.Occur.FILTER)
          .add(rowHeads(), BooleanClause.Occur.FILTER)
          .build();
      return (long) s.searcher().count(q);
    });
  }

  @Override
  public List<StoredChunk> rowChunks(RowRef row) {
    Objects.requireNonNull(row, "row");
    return reads.withSnapshot(s -> {
      Long g = s.active().get(row.tableRef());
      if (g == null) {
        return List.of();
      }
      IndexSearcher searcher = s.searcher();
      Query q = new TermQuery(new Term(F_ROW_GEN, LuceneSchema.rowGenKey(row, g)));
      int n = searcher.count(q);
      if (n == 0) {
        return List.of();
      }
      ScoreDoc[] docs = searcher.search(q, n).scoreDocs.clone();
      Arrays.sort(docs, Comparator.comparingInt(d -> d.doc));
      StoredFields stored = searcher.storedFields();
      float[][] vectors = RawVectors.of(s.reader(), docIds(docs));
      List<StoredChunk> out = new ArrayList<>(docs.length);
      for (int i = 0; i < docs.length; i++) {
        out.add(LuceneSchema.toChunk(stored.document(docs[i].doc), vectors[i]));
      }
      out.sort(Comparator.comparingInt(StoredChunk::chunkIndex));
      return List.copyOf(out);
    });
  }

  @Override
  public long chunkCount() {
    return reads.withSnapshot(s -> s.activeFilter() == null ? 0L : (long) s.searcher().count(s.activeFilter()));
  }

  RowSetResult rowSet(RowSetQuery query) {
    return rowSets.rowSet(query);
  }

  long rowsWithoutFields(RetrievalFilter filter) {
    return rowSets.rowsWithoutFields(filter);
  }
}

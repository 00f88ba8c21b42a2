package org.chartstream.store.lucene;

import static org.chartstream.store.lucene.LuceneSchema.F_PATIENT;
import static org.chartstream.store.lucene.LuceneSchema.F_ROW;
import static org.chartstream.store.lucene.LuceneSchema.F_ROW_GEN;
import static org.chartstream.store.lucene.LuceneSchema.F_ROW_HEAD;
import static org.chartstream.store.lucene.LuceneSchema.F_ROW_ID;
import static org.chartstream.store.lucene.LuceneSchema.F_ROW_KEY;
import static org.chartstream.store.lucene.LuceneSchema.F_ROW_OPENING;
import static org.chartstream.store.lucene.LuceneSchema.F_ROW_TEXT;
import static org.chartstream.store.lucene.LuceneSchema.F_SOURCE_ID;
import static org.chartstream.store.lucene.LuceneSchema.F_TABLE;
import static org.chartstream.store.lucene.LuceneSchema.F_TABLE_GEN;
import static org.chartstream.store.lucene.LuceneSchema.F_TEXT;
import static org.chartstream.store.lucene.LuceneSchema.F_VECTOR;
import static org.chartstream.store.lucene.LuceneSchema.ROW_HEAD_VALUE;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.MultiTerms;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.FuzzyTermsEnum;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.RescoreTopNQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.AlreadyClosedException;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.QueryBuilder;
import org.chartstream.core.store.ChunkChecks;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.SearchHit;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.core.store.TableRef;
import org.chartstream.core.store.TermIndex;
import org.chartstream.core.store.WeightedText;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's read side. Every call works on one {@link Snapshot} (one commit) from first to last query, and never
 * takes the writer's lock. Hits and row lookups carry each chunk's float32 vector ({@link RawVectors}).
 */
final class LuceneStoreSearcher {

  private static final Logger LOG = LoggerFactory.getLogger(LuceneStoreSearcher.class);

  /**
   * HNSW candidates (the search beam) of an unfiltered search, before full-precision rescoring keeps the top k.
   * Measured with {@code bench store} (docs/PERFORMANCE.md): recall@10 1.0 at 100 candidates over 5 segments of
   * 100k int8 vectors, so 50 (five per hit of a top 10) over one segment.
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
  /** Weight of the opening against the whole text in the lexical score. */
  static final float OPENING_BOOST = 2f;
  /** Chunks looked at per row of a lexical result: a row's best chunks come first, the rest rarely make top k. */
  private static final int MAX_CHUNKS_PER_ROW_HIT = 8;

  private final Path path;
  private final SnapshotManager snapshots;
  private final Analyzer analyzer;

  LuceneStoreSearcher(Path path, SnapshotManager snapshots, Analyzer analyzer) {
    this.path = path;
    this.snapshots = snapshots;
    this.analyzer = analyzer;
  }

  Map<String, String> checkpoint() {
    return withSnapshot(Snapshot::checkpoint);
  }

  Map<TableRef, Long> activeGenerations() {
    return withSnapshot(Snapshot::active);
  }

  /** Whether the searched commit has an active generation. */
  boolean hasActiveTables() {
    return withSnapshot(s -> !s.active().isEmpty());
  }

  /** Segments of the index that searches currently see (each has its own HNSW graph). */
  int searchableSegments() {
    return withSnapshot(s -> s.reader().leaves().size());
  }

  List<SearchHit> vectorSearch(float[] query, int k, RetrievalFilter filter) {
    Objects.requireNonNull(query, "query");
    requireK(k);
    return withSnapshot(s -> {
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

  /**
   * Matching chunks ranked by their row's BM25 over the row's whole text plus its opening (boosted), then by their
   * own; a row that matches only by its whole text (a quoted phrase across a chunk boundary) is cited by its head
   * chunk. A passage retriever scores a passage whole; a long row's terms are spread over its chunks, and chunk-level
   * BM25 would rank each piece alone, below shorter rows that happen to repeat a term. A hit's score is its row's. An
   * index written before rows carried their whole text falls back to chunk-level BM25.
   */
  List<SearchHit> lexicalSearch(String query, int k, RetrievalFilter filter) {
    requireK(k);
    return lexicalSearch(field -> LexicalQueries.build(analyzer, field, query), k, filter);
  }

  /**
   * {@link #lexicalSearch} of Σ weightᵢ · textᵢ: every text's query over the same analysed fields, boosted by its
   * weight (the opening's boost applies within each), so a row's score is the weighted sum of its BM25 scores.
   */
  List<SearchHit> weightedLexicalSearch(List<WeightedText> query, int k, RetrievalFilter filter) {
    requireK(k);
    return lexicalSearch(field -> LexicalQueries.build(analyzer, field, query), k, filter);
  }

  /** @param queryOver the query over a text field, or {@code null} when it has no searchable term */
  private List<SearchHit> lexicalSearch(Function<String, Query> queryOver, int k, RetrievalFilter filter) {
    Query chunkText = queryOver.apply(F_TEXT);
    if (chunkText == null) {
      return List.of();
    }
    Query rowText = new BooleanQuery.Builder()
        .add(queryOver.apply(F_ROW_TEXT), BooleanClause.Occur.SHOULD)
        .add(new BoostQuery(queryOver.apply(F_ROW_OPENING), OPENING_BOOST), BooleanClause.Occur.SHOULD)
        .build();
    return withSnapshot(s -> {
      if (s.activeFilter() == null) {
        return List.of();
      }
      Query restriction = restriction(s, filter);
      TopRows top = topRows(s.searcher(), new BooleanQuery.Builder()
          .add(rowText, BooleanClause.Occur.MUST)
          .add(restriction, BooleanClause.Occur.FILTER)
          .add(rowHeads(), BooleanClause.Occur.FILTER)
          .build(), k);
      Map<String, Float> rowScores = top.scores();
      BooleanQuery.Builder chunks = new BooleanQuery.Builder()
          .add(chunkText, BooleanClause.Occur.MUST)
          .add(restriction, BooleanClause.Occur.FILTER);
      if (rowScores.isEmpty()) {
        return hits(s, s.searcher().search(chunks.build(), k), score -> score);
      }
      StoredFields stored = s.searcher().storedFields();
      // a row's head is also its first chunk, often among the matching chunks: its stored fields are decoded once
      Map<Integer, Document> heads = top.heads();
      List<BytesRef> rowTerms = rowScores.keySet().stream().map(BytesRef::new).toList();
      chunks.add(new TermInSetQuery(F_ROW, rowTerms), BooleanClause.Occur.FILTER);
      TopDocs matching =
          s.searcher().search(chunks.build(), Math.max(k, rowScores.size() * MAX_CHUNKS_PER_ROW_HIT));
      record Ranked(int doc, StoredChunk chunk, float rowScore, float chunkScore) {}
      List<Ranked> ranked = new ArrayList<>(matching.scoreDocs.length);
      for (ScoreDoc sd : matching.scoreDocs) {
        Document d = heads.get(sd.doc);
        StoredChunk c = LuceneSchema.toChunk(d != null ? d : stored.document(sd.doc), null);
        ranked.add(new Ranked(sd.doc, c, rowScores.get(LuceneSchema.rowKey(c.row())), sd.score));
      }
      // a row found only by its whole text (a phrase across a chunk boundary) is cited by its head chunk
      Set<String> cited = new HashSet<>();
      ranked.forEach(r -> cited.add(LuceneSchema.rowKey(r.chunk().row())));
      heads.forEach((doc, head) -> {
        StoredChunk c = LuceneSchema.toChunk(head, null);
        String key = LuceneSchema.rowKey(c.row());
        if (!cited.contains(key)) {
          ranked.add(new Ranked(doc, c, rowScores.get(key), Float.NEGATIVE_INFINITY));
        }
      });
      ranked.sort(Comparator.comparing(Ranked::rowScore).thenComparing(Ranked::chunkScore).reversed()
          .thenComparing(r -> r.chunk().chunkId()));
      List<Ranked> kept = ranked.subList(0, Math.min(k, ranked.size()));
      // only the k kept hits read their vectors
      float[][] vectors = RawVectors.of(s.reader(), kept.stream().mapToInt(Ranked::doc).toArray());
      List<SearchHit> out = new ArrayList<>(kept.size());
      for (Ranked r : kept) {
        out.add(new SearchHit(r.chunk().withVector(vectors[out.size()]), r.rowScore(), out.size() + 1));
      }
      return List.copyOf(out);
    });
  }

  /** {@link TermIndex#rowsWithTerm}: rows found by the term in their whole text, cited by their first chunk holding it. */
  TermIndex.TermRows rowsWithTerm(String term, RetrievalFilter filter, int cap) {
    Objects.requireNonNull(term, "term");
    if (cap < 1) {
      throw new IllegalArgumentException("cap must be >= 1: " + cap);
    }
    Query rowText = exactQuery(F_ROW_TEXT, term);
    if (rowText == null) {
      return TermIndex.TermRows.NONE;
    }
    return withSnapshot(s -> {
      if (s.activeFilter() == null) {
        return TermIndex.TermRows.NONE;
      }
      Query restriction = restriction(s, filter);
      Query heads = new BooleanQuery.Builder()
          .add(rowText, BooleanClause.Occur.FILTER)
          .add(restriction, BooleanClause.Occur.FILTER)
          .add(rowHeads(), BooleanClause.Occur.FILTER)
          .build();
      int total = s.searcher().count(heads);
      if (total == 0) {
        return TermIndex.TermRows.NONE;
      }
      StoredFields stored = s.searcher().storedFields();
      Map<String, StoredChunk> byRowId = new TreeMap<>();
      for (ScoreDoc sd : s.searcher().search(heads, total).scoreDocs) {
        StoredChunk head = LuceneSchema.toChunk(stored.document(sd.doc), null);
        byRowId.put(head.row().id(), head);
      }
      List<StoredChunk> kept = new ArrayList<>(byRowId.values()).subList(0, Math.min(cap, byRowId.size()));
      Map<String, StoredChunk> first = new HashMap<>();
      for (StoredChunk c : chunksHolding(s, exactQuery(F_TEXT, term), restriction, kept)) {
        first.merge(c.row().id(), c, (a, b) -> a.chunkIndex() <= b.chunkIndex() ? a : b);
      }
      // a phrase across a chunk boundary is only in the row's whole text: the row is cited by its head chunk
      List<StoredChunk> rows = kept.stream().map(h -> first.getOrDefault(h.row().id(), h)).toList();
      return new TermIndex.TermRows(rows, total);
    });
  }

  /** {@link TermIndex#similarWords}: a walk of the whole-row text's term dictionary, checked against the active rows. */
  List<String> similarWords(String word, int maxEdits, int max) {
    Objects.requireNonNull(word, "word");
    if (maxEdits < 1 || maxEdits > 2 || max < 1) {
      throw new IllegalArgumentException("maxEdits must be 1 or 2 and max >= 1: " + maxEdits + ", " + max);
    }
    Set<String> analysed = LexicalQueries.terms(analyzer, F_ROW_TEXT, word);
    if (analysed.size() != 1) {
      return List.of();
    }
    String target = analysed.iterator().next();
    return withSnapshot(s -> {
      Terms terms = MultiTerms.getTerms(s.reader(), F_ROW_TEXT);
      if (terms == null || s.activeFilter() == null) {
        return List.of();
      }
      record Similar(String term, int edits, int rows) {}
      List<Similar> similar = new ArrayList<>();
      Query restriction = restriction(s, RetrievalFilter.NONE);
      FuzzyTermsEnum fuzzy =
          new FuzzyTermsEnum(terms, new Term(F_ROW_TEXT, target), maxEdits, 0, true);
      for (BytesRef t = fuzzy.next(); t != null; t = fuzzy.next()) {
        String term = t.utf8ToString();
        // the dictionary also holds superseded generations' and deleted rows' terms
        int rows = s.searcher().count(new BooleanQuery.Builder()
            .add(new TermQuery(new Term(F_ROW_TEXT, term)), BooleanClause.Occur.FILTER)
            .add(restriction, BooleanClause.Occur.FILTER)
            .add(rowHeads(), BooleanClause.Occur.FILTER)
            .build());
        if (rows > 0) {
          similar.add(new Similar(term, EditDistance.of(target, term), rows));
        }
      }
      similar.sort(Comparator.comparingInt(Similar::edits).thenComparing(Comparator.comparingInt(Similar::rows).reversed())
          .thenComparing(Similar::term));
      // the word's own stem is a suggestion when no record writes the word itself ("lisinoprill" → "lisinopril")
      String asked = analyzer.normalize(F_TEXT, word).utf8ToString();
      List<String> out = new ArrayList<>();
      for (Similar sim : similar) {
        String written = writtenForm(s, sim.term(), restriction);
        if (out.size() < max && !out.contains(written)
            && !analyzer.normalize(F_TEXT, written).utf8ToString().equals(asked)) {
          out.add(written);
        }
      }
      return List.copyOf(out);
    });
  }

  /** How the first row (in row id order) holding the indexed {@code term} writes it; the term if no chunk holds it alone. */
  private String writtenForm(Snapshot s, String term, Query restriction) throws IOException {
    Query q = new BooleanQuery.Builder()
        .add(new TermQuery(new Term(F_TEXT, term)), BooleanClause.Occur.FILTER)
        .add(restriction, BooleanClause.Occur.FILTER)
        .build();
    int n = s.searcher().count(q);
    if (n == 0) {
      return term;
    }
    StoredFields stored = s.searcher().storedFields();
    StoredChunk firstRow = null;
    for (ScoreDoc sd : s.searcher().search(q, n).scoreDocs) {
      StoredChunk c = LuceneSchema.toChunk(stored.document(sd.doc), null);
      if (firstRow == null || c.row().id().compareTo(firstRow.row().id()) < 0
          || (c.row().equals(firstRow.row()) && c.chunkIndex() < firstRow.chunkIndex())) {
        firstRow = c;
      }
    }
    try (TokenStream ts = analyzer.tokenStream(F_TEXT, firstRow.text())) {
      CharTermAttribute analysed =
          ts.addAttribute(CharTermAttribute.class);
      OffsetAttribute offsets =
          ts.addAttribute(OffsetAttribute.class);
      ts.reset();
      String written = term;
      while (ts.incrementToken()) {
        if (term.contentEquals(analysed)) {
          written = firstRow.text().substring(offsets.startOffset(), offsets.endOffset());
          break;
        }
      }
      ts.end();
      return written;
    }
  }

  /** The single analysed term of {@code text}, or its terms as a phrase; null when nothing in it is searchable. */
  private Query exactQuery(String field, String text) {
    Set<String> terms = LexicalQueries.terms(analyzer, field, text);
    if (terms.isEmpty()) {
      return null;
    }
    return terms.size() == 1 ? new TermQuery(new Term(field, terms.iterator().next()))
        : new QueryBuilder(analyzer).createPhraseQuery(field, text);
  }

  private static List<StoredChunk> chunksHolding(Snapshot s, Query text, Query restriction, List<StoredChunk> rows)
      throws IOException {
    Query q = new BooleanQuery.Builder()
        .add(text, BooleanClause.Occur.FILTER)
        .add(restriction, BooleanClause.Occur.FILTER)
        .add(new TermInSetQuery(F_ROW, rows.stream().map(c -> new BytesRef(LuceneSchema.rowKey(c.row()))).toList()),
            BooleanClause.Occur.FILTER)
        .build();
    int n = s.searcher().count(q);
    if (n == 0) {
      return List.of();
    }
    StoredFields stored = s.searcher().storedFields();
    List<StoredChunk> out = new ArrayList<>(n);
    for (ScoreDoc sd : s.searcher().search(q, n).scoreDocs) {
      out.add(LuceneSchema.toChunk(stored.document(sd.doc), null));
    }
    return out;
  }

  long countRows(TableRef table) {
    Objects.requireNonNull(table, "table");
    return withSnapshot(s -> {
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

  List<StoredChunk> rowChunks(RowRef row) {
    Objects.requireNonNull(row, "row");
    return withSnapshot(s -> {
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

  long chunkCount() {
    return withSnapshot(s -> s.activeFilter() == null ? 0L : (long) s.searcher().count(s.activeFilter()));
  }

  private static Query rowHeads() {
    return new TermQuery(new Term(F_ROW_HEAD, ROW_HEAD_VALUE));
  }

  /**
   * The chunks a search may return: the active generations (only restricted when some table has another generation
   * visible, e.g. one being re-indexed) and the caller's filter; {@link MatchAllDocsQuery} when nothing is excluded.
   */
  private static Query restriction(Snapshot s, RetrievalFilter filter) {
    RetrievalFilter f = filter == null ? RetrievalFilter.NONE : filter;
    Query generations = s.onlyActiveVisible() ? new MatchAllDocsQuery() : s.activeFilter();
    if (f.isEmpty()) {
      return generations;
    }
    BooleanQuery.Builder b = new BooleanQuery.Builder().add(generations, BooleanClause.Occur.FILTER);
    if (!f.tables().isEmpty()) {
      b.add(termsQuery(F_TABLE, f.tables()), BooleanClause.Occur.FILTER);
    }
    if (!f.sourceIds().isEmpty()) {
      b.add(termsQuery(F_SOURCE_ID, f.sourceIds()), BooleanClause.Occur.FILTER);
    }
    if (!f.rowKeys().isEmpty()) {
      b.add(new BooleanQuery.Builder()
          .add(termsQuery(F_ROW_KEY, f.rowKeys()), BooleanClause.Occur.SHOULD)
          .add(termsQuery(F_ROW_ID, f.rowKeys()), BooleanClause.Occur.SHOULD)
          .build(), BooleanClause.Occur.FILTER);
    }
    if (f.patient() != null) {
      b.add(new TermQuery(new Term(F_PATIENT, f.patient())), BooleanClause.Occur.FILTER);
    }
    return b.build();
  }

  private static Query termsQuery(String field, Set<String> values) {
    if (values.size() == 1) {
      return new TermQuery(new Term(field, values.iterator().next()));
    }
    List<BytesRef> terms = new ArrayList<>(values.size());
    for (String v : values) {
      terms.add(new BytesRef(v));
    }
    return new TermInSetQuery(field, terms);
  }

  private interface ScoreMap {
    double apply(float score);
  }

  /** The best rows' keys and scores, and their heads' stored fields by doc id (decoded once, reused for their chunks). */
  record TopRows(Map<String, Float> scores, Map<Integer, Document> heads) {}

  /**
   * The {@code k} best rows' keys and scores. Rows tied at the k-th score are cut by row key, not by Lucene's doc id
   * (the order the rows were written in, which follows ingest timing), so two indexes of the same rows return the
   * same rows: the search asks for one more hit than {@code k} and, while that one ties with the k-th, for twice as many.
   */
  static TopRows topRows(IndexSearcher searcher, Query rowQuery, int k) throws IOException {
    int n = k + 1;
    ScoreDoc[] top = searcher.search(rowQuery, n).scoreDocs;
    while (top.length == n && top[n - 1].score == top[k - 1].score) {
      n = Math.multiplyExact(n, 2);
      top = searcher.search(rowQuery, n).scoreDocs;
    }
    StoredFields stored = searcher.storedFields();
    record Row(String key, float score, int doc, Document head) {}
    List<Row> rows = new ArrayList<>(top.length);
    for (ScoreDoc sd : top) {
      Document head = stored.document(sd.doc);
      rows.add(new Row(LuceneSchema.rowKeyOf(head), sd.score, sd.doc, head));
    }
    rows.sort(Comparator.comparing(Row::score).reversed().thenComparing(Row::key));
    Map<String, Float> scores = new HashMap<>();
    Map<Integer, Document> heads = new HashMap<>();
    for (Row r : rows.subList(0, Math.min(k, rows.size()))) {
      scores.put(r.key(), r.score());
      heads.put(r.doc(), r.head());
    }
    return new TopRows(scores, heads);
  }

  private static List<SearchHit> hits(Snapshot s, TopDocs top, ScoreMap scoreMap) throws IOException {
    StoredFields stored = s.searcher().storedFields();
    float[][] vectors = RawVectors.of(s.reader(), docIds(top.scoreDocs));
    List<SearchHit> out = new ArrayList<>(top.scoreDocs.length);
    for (ScoreDoc sd : top.scoreDocs) {
      StoredChunk chunk = LuceneSchema.toChunk(stored.document(sd.doc), vectors[out.size()]);
      out.add(new SearchHit(chunk, scoreMap.apply(sd.score), out.size() + 1));
    }
    return List.copyOf(out);
  }

  private static int[] docIds(ScoreDoc[] docs) {
    int[] ids = new int[docs.length];
    for (int i = 0; i < docs.length; i++) {
      ids[i] = docs[i].doc;
    }
    return ids;
  }

  private static void requireK(int k) {
    if (k < 1) {
      throw new IllegalArgumentException("k must be >= 1: " + k);
    }
  }

  private interface SnapshotFn<T> {
    T apply(Snapshot s) throws IOException;
  }

  private <T> T withSnapshot(SnapshotFn<T> fn) {
    Snapshot s;
    try {
      s = snapshots.acquire();
    } catch (AlreadyClosedException e) {
      throw new IllegalStateException("store at " + path + " is closed", e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try {
      return fn.apply(s);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      try {
        snapshots.release(s);
      } catch (IOException e) {
        LOG.warn("releasing a reader failed", e);
      }
    }
  }
}

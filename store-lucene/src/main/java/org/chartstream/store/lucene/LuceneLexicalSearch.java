package org.chartstream.store.lucene;

import static org.chartstream.store.lucene.LuceneSchema.F_ROW;
import static org.chartstream.store.lucene.LuceneSchema.F_ROW_OPENING;
import static org.chartstream.store.lucene.LuceneSchema.F_ROW_TEXT;
import static org.chartstream.store.lucene.LuceneSchema.F_TEXT;
import static org.chartstream.store.lucene.SnapshotReads.hits;
import static org.chartstream.store.lucene.SnapshotReads.requireK;
import static org.chartstream.store.lucene.SnapshotReads.restriction;
import static org.chartstream.store.lucene.SnapshotReads.rowHeads;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.util.BytesRef;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.SearchHit;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.core.store.WeightedText;

/** BM25 over the chunks' text, ranked by their row's whole text and opening ({@link #lexicalSearch}). */
final class LuceneLexicalSearch {

  /** Weight of the opening against the whole text in the lexical score. */
  static final float OPENING_BOOST = 2f;
  /** Chunks looked at per row of a lexical result: a row's best chunks come first, the rest rarely make top k. */
  private static final int MAX_CHUNKS_PER_ROW_HIT = 8;

  private final SnapshotReads reads;
  private final Analyzer analyzer;

  LuceneLexicalSearch(SnapshotReads reads, Analyzer analyzer) {
    this.reads = reads;
    this.analyzer = analyzer;
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
    return reads.withSnapshot(s -> {
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
}

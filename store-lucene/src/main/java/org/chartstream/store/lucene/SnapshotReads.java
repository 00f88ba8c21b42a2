package org.chartstream.store.lucene;

import static org.chartstream.store.lucene.LuceneSchema.F_PATIENT;
import static org.chartstream.store.lucene.LuceneSchema.F_ROW_HEAD;
import static org.chartstream.store.lucene.LuceneSchema.F_ROW_ID;
import static org.chartstream.store.lucene.LuceneSchema.F_ROW_KEY;
import static org.chartstream.store.lucene.LuceneSchema.F_SOURCE_ID;
import static org.chartstream.store.lucene.LuceneSchema.F_TABLE;
import static org.chartstream.store.lucene.LuceneSchema.ROW_HEAD_VALUE;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.AlreadyClosedException;
import org.apache.lucene.util.BytesRef;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.SearchHit;
import org.chartstream.core.store.StoredChunk;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every read of the store shares: one {@link Snapshot} acquired and released around a read, the restriction of
 * a read to the active generations and the caller's filter, and hits built from a snapshot's documents.
 */
final class SnapshotReads {

  private static final Logger LOG = LoggerFactory.getLogger(SnapshotReads.class);

  private final Path path;
  private final SnapshotManager snapshots;

  SnapshotReads(Path path, SnapshotManager snapshots) {
    this.path = path;
    this.snapshots = snapshots;
  }

  interface SnapshotFn<T> {
    T apply(Snapshot s) throws IOException;
  }

  /** Runs {@code fn} on the current snapshot, held from its first query to its last. */
  <T> T withSnapshot(SnapshotFn<T> fn) {
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

  static Query rowHeads() {
    return new TermQuery(new Term(F_ROW_HEAD, ROW_HEAD_VALUE));
  }

  /**
   * The chunks a search may return: the active generations (only restricted when some table has another generation
   * visible, e.g. one being re-indexed) and the caller's filter; {@link MatchAllDocsQuery} when nothing is excluded.
   */
  static Query restriction(Snapshot s, RetrievalFilter filter) {
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

  static Query termsQuery(String field, Set<String> values) {
    if (values.size() == 1) {
      return new TermQuery(new Term(field, values.iterator().next()));
    }
    List<BytesRef> terms = new ArrayList<>(values.size());
    for (String v : values) {
      terms.add(new BytesRef(v));
    }
    return new TermInSetQuery(field, terms);
  }

  interface ScoreMap {
    double apply(float score);
  }

  static List<SearchHit> hits(Snapshot s, TopDocs top, ScoreMap scoreMap) throws IOException {
    StoredFields stored = s.searcher().storedFields();
    float[][] vectors = RawVectors.of(s.reader(), docIds(top.scoreDocs));
    List<SearchHit> out = new ArrayList<>(top.scoreDocs.length);
    for (ScoreDoc sd : top.scoreDocs) {
      StoredChunk chunk = LuceneSchema.toChunk(stored.document(sd.doc), vectors[out.size()]);
      out.add(new SearchHit(chunk, scoreMap.apply(sd.score), out.size() + 1));
    }
    return List.copyOf(out);
  }

  static int[] docIds(ScoreDoc[] docs) {
    int[] ids = new int[docs.length];
    for (int i = 0; i < docs.length; i++) {
      ids[i] = docs[i].doc;
    }
    return ids;
  }

  static void requireK(int k) {
    if (k < 1) {
      throw new IllegalArgumentException("k must be >= 1: " + k);
    }
  }
}

package org.chartstream.store.lucene;

import static org.chartstream.store.lucene.LuceneSchema.FIELD_DOC_VALUE_PREFIX;
import static org.chartstream.store.lucene.LuceneSchema.FIELD_VALUE_PREFIX;
import static org.chartstream.store.lucene.LuceneSchema.FIELD_WORD_PREFIX;
import static org.chartstream.store.lucene.LuceneSchema.F_FIELD_LONG;
import static org.chartstream.store.lucene.LuceneSchema.F_FIELD_NAME;
import static org.chartstream.store.lucene.LuceneSchema.F_HAS_FIELDS;
import static org.chartstream.store.lucene.LuceneSchema.F_PATIENT;
import static org.chartstream.store.lucene.LuceneSchema.F_PATIENT_VALUES;
import static org.chartstream.store.lucene.LuceneSchema.F_ROW_ORDER;
import static org.chartstream.store.lucene.SnapshotReads.restriction;
import static org.chartstream.store.lucene.SnapshotReads.rowHeads;
import static org.chartstream.store.lucene.SnapshotReads.termsQuery;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TermRangeQuery;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.Bits;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.core.store.rowset.FieldPredicate;
import org.chartstream.core.store.rowset.RowSet;
import org.chartstream.core.store.rowset.RowSetOutput;
import org.chartstream.core.store.rowset.RowSetQuery;
import org.chartstream.core.store.rowset.RowSetResult;
import org.chartstream.core.store.rowset.RowSetRow;
import org.chartstream.core.store.rowset.ValueTally;

/**
 * {@link org.chartstream.core.store.HybridStore#rowSet} on one snapshot: the set is a query over the row heads (the
 * active generations, the filter, keyword fields per column); counts and values come from doc values (the patient
 * key, the column's value as written), rows from stored fields in row order ({@link LuceneSchema#F_ROW_ORDER}).
 */
final class LuceneRowSets {

  private final SnapshotReads reads;

  LuceneRowSets(SnapshotReads reads) {
    this.reads = reads;
  }

  /** One row head of the set: its document, patient and the output field's value (either may be null). */
  private record Head(int doc, String patient, String value) {}

  RowSetResult rowSet(RowSetQuery query) {
    Objects.requireNonNull(query, "query");
    return reads.withSnapshot(s -> {
      RowSetOutput output = query.output();
      if (s.activeFilter() == null) {
        return RowSetResult.counted(output, 0, 0);
      }
      Query set = setQuery(s, query);
      List<Head> heads = scan(s, set, output.valueField());
      long patients = heads.stream().map(Head::patient).filter(Objects::nonNull).distinct().count();
      long rows = heads.size();
      return switch (output) {
        case RowSetOutput.Count c -> RowSetResult.counted(output, rows, patients);
        case RowSetOutput.Rows r -> RowSetResult.listing(output, rows, patients, firstRows(s, set, r.cap()), rows, 0);
        case RowSetOutput.DistinctValues d -> tally(heads).result(output, rows, patients);
        case RowSetOutput.TopValues t -> tally(heads).result(output, rows, patients);
        case RowSetOutput.Extreme e -> extreme(s, e, heads, rows, patients);
      };
    });
  }

  long rowsWithoutFields(RetrievalFilter filter) {
    return reads.withSnapshot(s -> s.activeFilter() == null ? 0L : (long) s.searcher().count(new BooleanQuery.Builder()
        .add(rowHeads(), Occur.FILTER)
        .add(restriction(s, filter), Occur.FILTER)
        .add(new TermQuery(new Term(F_HAS_FIELDS, LuceneSchema.ROW_HEAD_VALUE)), Occur.MUST_NOT)
        .build()));
  }

  private Query setQuery(Snapshot s, RowSetQuery query) throws IOException {
    BooleanQuery.Builder b = new BooleanQuery.Builder().add(rowsQuery(s, query.rows()), Occur.FILTER);
    if (query.except() != null) {
      Query except = rowsQuery(s, query.except());
      if (query.exceptBy() == RowSetQuery.ExceptBy.ROW) {
        b.add(except, Occur.MUST_NOT);
      } else {
        Set<String> patients = new HashSet<>();
        for (Head h : scan(s, except, null)) {
          if (h.patient() != null) {
            patients.add(h.patient());
          }
        }
        if (!patients.isEmpty()) {
          b.add(termsQuery(F_PATIENT, patients), Occur.MUST_NOT);
        }
      }
    }
    return b.build();
  }

  private static Query rowsQuery(Snapshot s, RowSet rows) {
    BooleanQuery.Builder b = new BooleanQuery.Builder()
        .add(rowHeads(), Occur.FILTER)
        .add(restriction(s, rows.filter()), Occur.FILTER);
    for (FieldPredicate p : rows.predicates()) {
      b.add(predicateQuery(p), p instanceof FieldPredicate.Absent ? Occur.MUST_NOT : Occur.FILTER);
    }
    return b.build();
  }

  private static Query predicateQuery(FieldPredicate p) {
    return switch (p) {
      case FieldPredicate.AnyOf a -> termsQuery(FIELD_VALUE_PREFIX + a.field(), a.foldedValues());
      case FieldPredicate.HasWords h -> {
        BooleanQuery.Builder all = new BooleanQuery.Builder();
        h.foldedWords().forEach(w -> all.add(new TermQuery(new Term(FIELD_WORD_PREFIX + h.field(), w)), Occur.FILTER));
        yield all.build();
      }
      case FieldPredicate.InRange r ->
          TermRangeQuery.newStringRange(FIELD_VALUE_PREFIX + r.field(), r.lower(), r.upper(), r.lowerInclusive(),
              r.upperInclusive());
      case FieldPredicate.Present pr -> new TermQuery(new Term(F_FIELD_NAME, pr.field()));
      case FieldPredicate.Absent ab -> new TermQuery(new Term(F_FIELD_NAME, ab.field()));
    };
  }

  /**
   * Every row head {@code set} matches, with its patient and (when {@code field} is not null) the field's value: from
   * doc values, or from storage for a value too long for them.
   */
  private static List<Head> scan(Snapshot s, Query set, String field) throws IOException {
    Weight weight = s.searcher().createWeight(s.searcher().rewrite(set), ScoreMode.COMPLETE_NO_SCORES, 1f);
    Weight longValues = field == null ? null : s.searcher().createWeight(
        new TermQuery(new Term(F_FIELD_LONG, field)), ScoreMode.COMPLETE_NO_SCORES, 1f);
    StoredFields stored = s.searcher().storedFields();
    List<Head> out = new ArrayList<>();
    for (LeafReaderContext leaf : s.reader().leaves()) {
      Scorer scorer = weight.scorer(leaf);
      if (scorer == null) {
        continue;
      }
      Bits live = leaf.reader().getLiveDocs();
      SortedDocValues patients = DocValues.getSorted(leaf.reader(), F_PATIENT_VALUES);
      SortedSetDocValues values = field == null ? null
          : DocValues.getSortedSet(leaf.reader(), FIELD_DOC_VALUE_PREFIX + field);
      Scorer longScorer = longValues == null ? null : longValues.scorer(leaf);
      DocIdSetIterator longDocs = longScorer == null ? DocIdSetIterator.empty() : longScorer.iterator();
      DocIdSetIterator docs = scorer.iterator();
      for (int doc = docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = docs.nextDoc()) {
        if (live != null && !live.get(doc)) {
          continue;
        }
        String patient = patients.advanceExact(doc) ? patients.lookupOrd(patients.ordValue()).utf8ToString() : null;
        String value = null;
        if (values != null && values.advanceExact(doc)) {
          value = values.lookupOrd(values.nextOrd()).utf8ToString();
        } else if (values != null && longDocs.docID() <= doc && longDocs.advance(doc) == doc) {
          value = LuceneSchema.rowFields(stored.document(leaf.docBase + doc)).get(field);
        }
        out.add(new Head(leaf.docBase + doc, patient, value));
      }
    }
    return out;
  }

  private static List<RowSetRow> firstRows(Snapshot s, Query set, int cap) throws IOException {
    ScoreDoc[] top = s.searcher().search(set, cap, new Sort(new SortField(F_ROW_ORDER, SortField.Type.STRING)))
        .scoreDocs;
    List<RowSetRow> out = new ArrayList<>(top.length);
    StoredFields stored = s.searcher().storedFields();
    for (ScoreDoc sd : top) {
      out.add(row(stored, sd.doc));
    }
    return out;
  }

  private static RowSetRow row(StoredFields stored, int doc) throws IOException {
    StoredChunk head = LuceneSchema.toChunk(stored.document(doc), null);
    return new RowSetRow(head.row(), head.patientKey(), head.patient(), head.fields());
  }

  private static ValueTally tally(List<Head> heads) {
    ValueTally tally = new ValueTally();
    heads.stream().filter(h -> h.value() != null).forEach(h -> tally.add(h.value(), h.patient(), 1));
    return tally;
  }

  private static RowSetResult extreme(Snapshot s, RowSetOutput.Extreme e, List<Head> heads, long rows, long patients)
      throws IOException {
    Map<String, List<Head>> best = new HashMap<>();
    long withValue = 0;
    for (Head h : heads) {
      if (h.value() == null) {
        continue;
      }
      withValue++;
      if (e.perPatient() && h.patient() == null) {
        continue;
      }
      List<Head> tied = best.computeIfAbsent(e.perPatient() ? h.patient() : "", k -> new ArrayList<>());
      int order = tied.isEmpty() ? 1 : h.value().compareTo(tied.get(0).value());
      if (!tied.isEmpty() && e.end() == RowSetOutput.End.EARLIEST) {
        order = -order;
      }
      if (order > 0) {
        tied.clear();
      }
      if (order >= 0) {
        tied.add(h);
      }
    }
    StoredFields stored = s.searcher().storedFields();
    List<RowSetRow> found = new ArrayList<>();
    for (List<Head> tied : best.values()) {
      for (Head h : tied) {
        found.add(row(stored, h.doc()));
      }
    }
    return RowSetResult.listing(e, rows, patients, found, found.size(), rows - withValue);
  }
}

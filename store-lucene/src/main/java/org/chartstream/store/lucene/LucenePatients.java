package org.chartstream.store.lucene;

import static org.chartstream.store.lucene.LuceneSchema.F_PATIENT_TERM;
import static org.chartstream.store.lucene.SnapshotReads.restriction;
import static org.chartstream.store.lucene.SnapshotReads.rowHeads;
import static org.chartstream.store.lucene.SnapshotReads.termsQuery;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.chartstream.core.store.IndexedPatient;
import org.chartstream.core.store.PatientTerms;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.StoredChunk;

/**
 * {@link org.chartstream.core.store.HybridStore#patientsNamed}: the row heads whose indexed patient terms
 * ({@link LuceneSchema#F_PATIENT_TERM}) hold one of the words, one per patient (its first row by row id).
 */
final class LucenePatients {

  private final SnapshotReads reads;

  LucenePatients(SnapshotReads reads) {
    this.reads = reads;
  }

  List<IndexedPatient> patientsNamed(Set<String> terms, int limit, RetrievalFilter filter) {
    Objects.requireNonNull(terms, "terms");
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be >= 1: " + limit);
    }
    if (terms.isEmpty()) {
      return List.of();
    }
    return reads.withSnapshot(s -> {
      if (s.activeFilter() == null) {
        return List.of();
      }
      Query heads = new BooleanQuery.Builder()
          .add(termsQuery(F_PATIENT_TERM, terms), BooleanClause.Occur.FILTER)
          .add(restriction(s, filter), BooleanClause.Occur.FILTER)
          .add(rowHeads(), BooleanClause.Occur.FILTER)
          .build();
      int n = s.searcher().count(heads);
      if (n == 0) {
        return List.of();
      }
      StoredFields stored = s.searcher().storedFields();
      Map<String, StoredChunk> firstRowByPatient = new HashMap<>();
      for (ScoreDoc sd : s.searcher().search(heads, n).scoreDocs) {
        StoredChunk head = LuceneSchema.toChunk(stored.document(sd.doc), null);
        if (head.patientKey() != null) {
          firstRowByPatient.merge(head.patientKey(), head,
              (a, b) -> a.row().id().compareTo(b.row().id()) <= 0 ? a : b);
        }
      }
      return PatientTerms.mostMatching(firstRowByPatient.values().stream()
          .map(head -> new IndexedPatient(head.patientKey(), head.patient())).toList(), terms, limit);
    });
  }
}

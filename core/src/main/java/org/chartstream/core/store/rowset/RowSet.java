package org.chartstream.core.store.rowset;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.StoredChunk;

/**
 * A set of rows of the active generations: those that pass {@code filter} (tables, sources, rows, patient) and every
 * one of {@code predicates} on their fields. Each row counts once, however many chunks it has.
 */
public record RowSet(RetrievalFilter filter, List<FieldPredicate> predicates) {

  public RowSet {
    filter = filter == null ? RetrievalFilter.NONE : filter;
    predicates = predicates == null ? List.of() : List.copyOf(predicates);
  }

  public static RowSet of(RetrievalFilter filter, FieldPredicate... predicates) {
    return new RowSet(filter, Arrays.asList(predicates));
  }

  /** The decision a store makes on a row's first chunk: for tests and for stores that filter in the application. */
  public boolean matches(StoredChunk head) {
    Map<String, String> fields = head.fields();
    return filter.matches(head) && predicates.stream().allMatch(p -> p.test(fields));
  }

  /** The fields the predicates name. */
  public List<String> fieldNames() {
    return predicates.stream().map(FieldPredicate::field).distinct().toList();
  }

  /** Sizes only: values can be patient data. */
  @Override
  public String toString() {
    return "RowSet[" + filter + ", " + predicates + "]";
  }
}

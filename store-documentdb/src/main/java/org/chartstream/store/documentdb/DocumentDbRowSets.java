package org.chartstream.store.documentdb;

import static org.chartstream.store.documentdb.DocumentDbDatabase.BATCH_SIZE;
import static org.chartstream.store.documentdb.DocumentDbSchema.FIELDS;
import static org.chartstream.store.documentdb.DocumentDbSchema.FIELDS_FOLDED;
import static org.chartstream.store.documentdb.DocumentDbSchema.FIELDS_WORDS;
import static org.chartstream.store.documentdb.DocumentDbPipelines.PATIENT;
import static org.chartstream.store.documentdb.DocumentDbPipelines.ROW_HEAD;
import static org.chartstream.store.documentdb.DocumentDbPipelines.ROW_KEY;
import static org.chartstream.store.documentdb.DocumentDbPipelines.SOURCE_ID;
import static org.chartstream.store.documentdb.DocumentDbPipelines.TABLE;
import static org.chartstream.store.documentdb.DocumentDbPipelines.TEXT;
import static org.chartstream.store.documentdb.DocumentDbPipelines.VECTOR;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.Sorts;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import org.bson.Document;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.rowset.FieldPredicate;
import org.chartstream.core.store.rowset.RowSet;
import org.chartstream.core.store.rowset.RowSetOutput;
import org.chartstream.core.store.rowset.RowSetQuery;
import org.chartstream.core.store.rowset.RowSetResult;
import org.chartstream.core.store.rowset.RowSetRow;
import org.chartstream.core.store.rowset.ValueTally;

/**
 * {@link org.chartstream.core.store.HybridStore#rowSet} on one committed epoch: the set is a {@code $match} over the
 * row heads (the search filter and the row fields the head holds: {@code fields}, folded {@code fields_lc}, words
 * {@code fields_words}); counts and values are {@code $group}s, rows a sorted {@code find} without text and vector.
 */
final class DocumentDbRowSets {

  private final MongoCollection<Document> records;

  DocumentDbRowSets(MongoCollection<Document> records) {
    this.records = records;
  }

  RowSetResult rowSet(DocumentDbSearcher.ReadView view, RowSetQuery query) {
    Objects.requireNonNull(query, "query");
    RowSetOutput output = query.output();
    if (view.active().isEmpty()) {
      return RowSetResult.counted(output, 0, 0);
    }
    Document set = setMatch(view, query);
    long rows = 0;
    long patients = 0;
    for (Document group : records.aggregate(rowsPerPatient(set))) {
      rows += group.get("rows", Number.class).longValue();
      patients += group.get("_id") == null ? 0 : 1;
    }
    return switch (output) {
      case RowSetOutput.Count c -> RowSetResult.counted(output, rows, patients);
      case RowSetOutput.Rows r -> RowSetResult.listing(output, rows, patients, firstRows(set, r.cap()), rows, 0);
      case RowSetOutput.DistinctValues d -> tally(set, d.field()).result(output, rows, patients);
      case RowSetOutput.TopValues t -> tally(set, t.field()).result(output, rows, patients);
      case RowSetOutput.Extreme e -> extreme(set, e, rows, patients);
    };
  }

  long rowsWithoutFields(DocumentDbSearcher.ReadView view, RetrievalFilter filter) {
    return view.active().isEmpty() ? 0 : records.countDocuments(DocumentDbPipelines.searchFilter(view.epoch(),
        view.activeKeys(), filter).append(ROW_HEAD, true).append(FIELDS, new Document("$exists", false)));
  }

  private Document setMatch(DocumentDbSearcher.ReadView view, RowSetQuery query) {
    Document set = rowsMatch(view.epoch(), view.activeKeys(), query.rows());
    if (query.except() == null) {
      return set;
    }
    Document except = rowsMatch(view.epoch(), view.activeKeys(), query.except());
    List<Document> all = new ArrayList<>(set.getList("$and", Document.class));
    if (query.exceptBy() == RowSetQuery.ExceptBy.ROW) {
      all.add(new Document("$nor", List.of(except)));
    } else {
      TreeSet<String> patients = new TreeSet<>();
      for (Document group : records.aggregate(patientsOf(except))) {
        if (group.getString("_id") != null) {
          patients.add(group.getString("_id"));
        }
      }
      all.add(new Document(PATIENT, new Document("$nin", List.copyOf(patients))));
    }
    return new Document("$and", all);
  }

  /** The set's rows counted per patient ({@code _id} null for rows without one): rows and patients in one pass. */
  static List<Document> rowsPerPatient(Document set) {
    return List.of(new Document("$match", set),
        new Document("$group", new Document("_id", "$" + PATIENT).append("rows", new Document("$sum", 1))));
  }

  /** The patients of a set: what an {@code except} by patient leaves out. */
  static List<Document> patientsOf(Document set) {
    return List.of(new Document("$match", set), new Document("$group", new Document("_id", "$" + PATIENT)));
  }

  /** The set's rows holding the field, counted per value and patient. */
  static List<Document> valuesPerPatient(Document set, String field) {
    Document by = new Document("v", "$" + valuePath(field)).append("p", "$" + PATIENT);
    return List.of(new Document("$match", withValue(set, field)),
        new Document("$group", new Document("_id", by).append("rows", new Document("$sum", 1))));
  }

  /** The greatest (latest) or smallest value of the field in the valued set, per patient or over the whole set. */
  static List<Document> extremeValues(Document valued, RowSetOutput.Extreme e) {
    String accumulator = e.end() == RowSetOutput.End.LATEST ? "$max" : "$min";
    return List.of(new Document("$match", valued),
        new Document("$group", new Document("_id", e.perPatient() ? "$" + PATIENT : null)
            .append("best", new Document(accumulator, "$" + valuePath(e.field())))));
  }

  /**
   * The row heads of {@code rows} as of commit {@code epoch}: one {@code $and} of the search filter and one condition
   * per predicate (two predicates on one column stay two conditions).
   */
  static Document rowsMatch(long epoch, List<String> activeKeys, RowSet rows) {
    List<Document> all = new ArrayList<>();
    all.add(DocumentDbPipelines.searchFilter(epoch, activeKeys, rows.filter()).append(ROW_HEAD, true));
    rows.predicates().forEach(p -> all.add(predicate(p)));
    return new Document("$and", all);
  }

  private static Document predicate(FieldPredicate p) {
    String key = DocumentDbSchema.fieldKey(p.field());
    return switch (p) {
      case FieldPredicate.AnyOf a -> new Document(FIELDS_FOLDED + "." + key,
          new Document("$in", List.copyOf(new TreeSet<>(a.foldedValues()))));
      case FieldPredicate.HasWords h -> new Document(FIELDS_WORDS + "." + key,
          new Document("$all", List.copyOf(h.foldedWords())));
      case FieldPredicate.InRange r -> {
        Document range = new Document();
        if (r.lower() != null) {
          range.append(r.lowerInclusive() ? "$gte" : "$gt", r.lower());
        }
        if (r.upper() != null) {
          range.append(r.upperInclusive() ? "$lte" : "$lt", r.upper());
        }
        yield new Document(FIELDS_FOLDED + "." + key, range);
      }
      case FieldPredicate.Present pr -> new Document(FIELDS + "." + key, new Document("$exists", true));
      case FieldPredicate.Absent ab -> new Document(FIELDS + "." + key, new Document("$exists", false));
    };
  }

  private static String valuePath(String field) {
    return FIELDS + "." + DocumentDbSchema.fieldKey(field);
  }

  private static Document withValue(Document set, String field) {
    List<Document> all = new ArrayList<>(set.getList("$and", Document.class));
    all.add(new Document(valuePath(field), new Document("$exists", true)));
    return new Document("$and", all);
  }

  private List<RowSetRow> firstRows(Document set, int cap) {
    List<RowSetRow> out = new ArrayList<>();
    for (Document d : records.find(set).projection(Projections.exclude(TEXT, VECTOR))
        .sort(Sorts.ascending(SOURCE_ID, TABLE, ROW_KEY)).limit(cap).batchSize(BATCH_SIZE)) {
      out.add(row(d));
    }
    return out;
  }

  private static RowSetRow row(Document d) {
    return new RowSetRow(new RowRef(d.getString(SOURCE_ID), d.getString(TABLE), d.getString(ROW_KEY)),
        d.getString(PATIENT), DocumentDbSchema.patientLabel(d), DocumentDbSchema.rowFields(d));
  }

  private ValueTally tally(Document set, String field) {
    ValueTally tally = new ValueTally();
    for (Document group : records.aggregate(valuesPerPatient(set, field))) {
      Document id = group.get("_id", Document.class);
      tally.add(String.valueOf(id.get("v")), id.getString("p"), group.get("rows", Number.class).longValue());
    }
    return tally;
  }

  /** The greatest (or smallest) value per group by {@code $group}, then the rows that hold it. */
  private RowSetResult extreme(Document set, RowSetOutput.Extreme e, long rows, long patients) {
    Document valued = withValue(set, e.field());
    long withValue = records.countDocuments(valued);
    if (e.perPatient()) {
      List<Document> all = new ArrayList<>(valued.getList("$and", Document.class));
      all.add(new Document(PATIENT, new Document("$exists", true)));
      valued = new Document("$and", all);
    }
    Map<String, String> best = new HashMap<>();
    for (Document group : records.aggregate(extremeValues(valued, e))) {
      best.put(e.perPatient() ? group.getString("_id") : "", String.valueOf(group.get("best")));
    }
    if (best.isEmpty()) {
      return RowSetResult.listing(e, rows, patients, List.of(), 0, rows - withValue);
    }
    List<Document> all = new ArrayList<>(valued.getList("$and", Document.class));
    all.add(new Document(valuePath(e.field()), new Document("$in", List.copyOf(new TreeSet<>(best.values())))));
    List<RowSetRow> found = new ArrayList<>();
    for (Document d : records.find(new Document("$and", all)).projection(Projections.exclude(TEXT, VECTOR))
        .batchSize(BATCH_SIZE)) {
      RowSetRow r = row(d);
      if (r.fields().get(e.field()).equals(best.get(e.perPatient() ? r.patientKey() : ""))) {
        found.add(r);
      }
    }
    return RowSetResult.listing(e, rows, patients, found, found.size(), rows - withValue);
  }
}

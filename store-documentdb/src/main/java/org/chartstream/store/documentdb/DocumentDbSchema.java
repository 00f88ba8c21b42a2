package org.chartstream.store.documentdb;

import static org.chartstream.store.documentdb.DocumentDbPipelines.CHUNK_COUNT;
import static org.chartstream.store.documentdb.DocumentDbPipelines.CHUNK_ID;
import static org.chartstream.store.documentdb.DocumentDbPipelines.CHUNK_INDEX;
import static org.chartstream.store.documentdb.DocumentDbPipelines.COMMIT_TS_MS;
import static org.chartstream.store.documentdb.DocumentDbPipelines.EPOCH_ADDED;
import static org.chartstream.store.documentdb.DocumentDbPipelines.EPOCH_REMOVED;
import static org.chartstream.store.documentdb.DocumentDbPipelines.GENERATION;
import static org.chartstream.store.documentdb.DocumentDbPipelines.ID;
import static org.chartstream.store.documentdb.DocumentDbPipelines.LIVE;
import static org.chartstream.store.documentdb.DocumentDbPipelines.MODEL_ID;
import static org.chartstream.store.documentdb.DocumentDbPipelines.OPENING;
import static org.chartstream.store.documentdb.DocumentDbPipelines.PATIENT;
import static org.chartstream.store.documentdb.DocumentDbPipelines.PATIENT_BIRTH_YEAR;
import static org.chartstream.store.documentdb.DocumentDbPipelines.PATIENT_NAME;
import static org.chartstream.store.documentdb.DocumentDbPipelines.PATIENT_NUMBER;
import static org.chartstream.store.documentdb.DocumentDbPipelines.PATIENT_TERMS;
import static org.chartstream.store.documentdb.DocumentDbPipelines.ROW_HEAD;
import static org.chartstream.store.documentdb.DocumentDbPipelines.ROW_KEY;
import static org.chartstream.store.documentdb.DocumentDbPipelines.ROW_REFS;
import static org.chartstream.store.documentdb.DocumentDbPipelines.SOURCE_ID;
import static org.chartstream.store.documentdb.DocumentDbPipelines.SOURCE_POSITION;
import static org.chartstream.store.documentdb.DocumentDbPipelines.TABLE;
import static org.chartstream.store.documentdb.DocumentDbPipelines.TABLE_GEN;
import static org.chartstream.store.documentdb.DocumentDbPipelines.TEXT;
import static org.chartstream.store.documentdb.DocumentDbPipelines.VECTOR;

import com.mongodb.client.model.Filters;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.chartstream.core.store.PatientLabel;
import org.chartstream.core.store.PatientTerms;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.core.store.TableRef;
import org.chartstream.core.store.rowset.FieldValues;

/**
 * How the DocumentDB store keeps its data: the collections, a chunk version as a {@code records} document and back,
 * a table's pointer document and the commit state's checkpoint. (The record field names are in
 * {@link DocumentDbPipelines}, whose commands use them.)
 */
final class DocumentDbSchema {

  static final String RECORDS = "records";
  static final String INDEXED_TABLES = "indexed_tables";
  static final String COMMIT_STATE = "commit_state";
  static final String STATE_ID = "commit";
  static final String STATE_EPOCH = "epoch";
  static final String STATE_CHECKPOINT = "checkpoint";
  static final String STATE_DIMENSION = "dimension";
  /** The vector index's {@code cosmosSearchOptions.kind}. */
  static final String STATE_VECTOR_INDEX_KIND = "vector_index_kind";
  /** How many documents the collection held when the IVF index was last built: its list centres' sample. */
  static final String STATE_VECTOR_INDEX_ROWS = "vector_index_rows";
  /** The lists ({@code numLists}) the IVF index was last built with: searches probe {@link IvfSizing#probes} of them. */
  static final String STATE_VECTOR_INDEX_LISTS = "vector_index_lists";
  static final String POINTER_GENERATIONS = "generations";
  static final String POINTER_SINCE_EPOCH = "since_epoch";
  /**
   * A record's row fields, column ({@link #fieldKey}) to value as written; on the row head also each column's folded
   * value (equality, ranges) and folded words ("has words"), which row sets match.
   */
  static final String FIELDS = "fields";
  static final String FIELDS_FOLDED = "fields_lc";
  static final String FIELDS_WORDS = "fields_words";

  private DocumentDbSchema() {}

  /** The chunk as the version written by commit {@code epoch}; {@code rowHead} on the first chunk of the row. */
  static Document toDocument(StoredChunk c, boolean rowHead, long epoch) {
    RowRef row = c.row();
    List<Double> vector = new ArrayList<>(c.vector().length);
    for (float f : c.vector()) {
      vector.add((double) f);
    }
    Document d = new Document(ID, c.chunkId() + "@" + epoch)
        .append(CHUNK_ID, c.chunkId())
        .append(SOURCE_ID, row.sourceId())
        .append(TABLE, row.table())
        .append(ROW_KEY, row.rowKey())
        .append(ROW_REFS, List.of(row.rowKey(), row.id()))
        .append(GENERATION, c.generation())
        .append(TABLE_GEN, DocumentDbPipelines.tableGenKey(row.sourceId(), row.table(), c.generation()))
        .append(CHUNK_INDEX, c.chunkIndex())
        .append(CHUNK_COUNT, c.chunkCount())
        .append(TEXT, c.text())
        .append(OPENING, DocumentDbPipelines.opening(c.text()))
        .append(VECTOR, vector)
        .append(COMMIT_TS_MS, c.commitTsMs())
        .append(ROW_HEAD, rowHead)
        .append(EPOCH_ADDED, epoch)
        .append(EPOCH_REMOVED, LIVE);
    if (c.patientKey() != null) {
      d.append(PATIENT, c.patientKey());
    }
    appendPatientLabel(d, c.patient());
    if (rowHead && c.patientKey() != null) {
      d.append(PATIENT_TERMS, List.copyOf(PatientTerms.of(c)));
    }
    appendFields(d, c, rowHead);
    if (c.sourcePosition() != null) {
      d.append(SOURCE_POSITION, c.sourcePosition());
    }
    if (c.modelId() != null) {
      d.append(MODEL_ID, c.modelId());
    }
    return d;
  }

  /** The chunk's fields; on the row head also folded and as words, which row sets match ({@code $match}). */
  private static void appendFields(Document d, StoredChunk c, boolean rowHead) {
    if (c.fields().isEmpty()) {
      return;
    }
    Document values = new Document();
    Document folded = new Document();
    Document words = new Document();
    c.fields().forEach((column, value) -> {
      String key = fieldKey(column);
      values.append(key, value);
      folded.append(key, FieldValues.folded(value));
      words.append(key, List.copyOf(FieldValues.words(value)));
    });
    d.append(FIELDS, values);
    if (rowHead) {
      d.append(FIELDS_FOLDED, folded).append(FIELDS_WORDS, words);
    }
  }

  /**
   * A column name as a field name: a dot would make a path and a leading dollar an operator, so {@code %}, {@code .},
   * {@code $} and NUL are percent-encoded.
   */
  static String fieldKey(String column) {
    StringBuilder out = new StringBuilder(column.length());
    for (char ch : column.toCharArray()) {
      switch (ch) {
        case '%' -> out.append("%25");
        case '.' -> out.append("%2E");
        case '$' -> out.append("%24");
        case '\0' -> out.append("%00");
        default -> out.append(ch);
      }
    }
    return out.toString();
  }

  static String columnOfFieldKey(String key) {
    return key.indexOf('%') < 0 ? key
        : key.replace("%2E", ".").replace("%24", "$").replace("%00", "\0").replace("%25", "%");
  }

  /** The row fields a record holds, in their written order. */
  static Map<String, String> rowFields(Document d) {
    Document values = d.get(FIELDS, Document.class);
    if (values == null || values.isEmpty()) {
      return Map.of();
    }
    Map<String, String> out = new LinkedHashMap<>();
    values.forEach((key, value) -> out.put(columnOfFieldKey(key), String.valueOf(value)));
    return out;
  }

  private static void appendPatientLabel(Document d, PatientLabel label) {
    if (label == null) {
      return;
    }
    if (label.number() != null) {
      d.append(PATIENT_NUMBER, label.number());
    }
    if (label.name() != null) {
      d.append(PATIENT_NAME, label.name());
    }
    if (label.birthYear() != null) {
      d.append(PATIENT_BIRTH_YEAR, label.birthYear());
    }
  }

  /**
   * The chunk a record (or a search result's projection of it) holds, with its vector: the stored doubles are the
   * written floats widened, so narrowing them gives the written vector back exactly. Without a vector when the
   * projection left it out.
   */
  static StoredChunk toChunk(Document d) {
    RowRef row = new RowRef(d.getString(SOURCE_ID), d.getString(TABLE), d.getString(ROW_KEY));
    List<Number> values = d.getList(VECTOR, Number.class);
    float[] vector = values == null ? null : floats(values);
    return new StoredChunk(d.getString(CHUNK_ID), row, d.get(CHUNK_INDEX, Number.class).intValue(),
        d.get(CHUNK_COUNT, Number.class).intValue(), d.get(GENERATION, Number.class).longValue(),
        d.getString(TEXT), vector, d.getString(PATIENT), patientLabel(d), d.getString(SOURCE_POSITION),
        d.get(COMMIT_TS_MS, Number.class).longValue(), d.getString(MODEL_ID), rowFields(d));
  }

  private static float[] floats(List<Number> values) {
    float[] out = new float[values.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = values.get(i).floatValue();
    }
    return out;
  }

  /** The label a record holds; {@code null} on a record written without one. */
  static PatientLabel patientLabel(Document d) {
    Number birthYear = d.get(PATIENT_BIRTH_YEAR, Number.class);
    return PatientLabel.of(d.getString(PATIENT_NUMBER), d.getString(PATIENT_NAME),
        birthYear == null ? null : birthYear.intValue());
  }

  /** Every version of the row's chunks, in every generation. */
  static Bson rowFilter(RowRef row) {
    return Filters.and(Filters.eq(SOURCE_ID, row.sourceId()), Filters.eq(TABLE, row.table()),
        Filters.eq(ROW_KEY, row.rowKey()));
  }

  /** The {@code _id} of a table's pointer document. */
  static Document tableId(TableRef table) {
    return new Document(SOURCE_ID, table.sourceId()).append(TABLE, table.table());
  }

  /** A pointer document's {@code (generation, since_epoch)} entries, oldest first. */
  static List<Document> pointerHistory(Document pointer) {
    return pointer.getList(POINTER_GENERATIONS, Document.class, List.of());
  }

  /** Checkpoint keys can hold dots and dollars, which field names must not: stored as key/value pairs. */
  static List<Document> checkpointList(Map<String, String> cp) {
    List<Document> out = new ArrayList<>(cp.size());
    cp.forEach((k, v) -> out.add(new Document("key", k).append("value", v)));
    return out;
  }

  static Map<String, String> readCheckpoint(Document state) {
    Map<String, String> cp = new TreeMap<>();
    List<Document> entries = state.getList(STATE_CHECKPOINT, Document.class, List.of());
    for (Document e : entries) {
      cp.put(e.getString("key"), e.getString("value"));
    }
    return Collections.unmodifiableMap(cp);
  }
}

package org.chartstream.store.lucene;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.miscellaneous.LimitTokenCountAnalyzer;
import org.apache.lucene.analysis.miscellaneous.PerFieldAnalyzerWrapper;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.FilterCodec;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene104.Lucene104HnswScalarQuantizedVectorsFormat;
import org.apache.lucene.codecs.perfield.PerFieldKnnVectorsFormat;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.SortedSetDocValuesField;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.quantization.QuantizedByteVectorValues.ScalarEncoding;
import org.chartstream.core.store.PatientLabel;
import org.chartstream.core.store.PatientTerms;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.RowTextRejoiner;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.core.store.TableRef;
import org.chartstream.core.store.rowset.FieldValues;

/**
 * How the Lucene store keeps a chunk: its fields, how a row's chunks become Lucene documents and a document becomes
 * a chunk again, the internal keys, the commit user data keys, and the codec (the vectors format) segments are
 * written with.
 */
final class LuceneSchema {

  // ---- fields
  static final String F_CHUNK_ID = "chunk_id";
  /** Internal row identity (unambiguous separator): deletes. */
  static final String F_ROW = "row";
  /** The display row id {@code source:table:rowKey}: row-key filters. */
  static final String F_ROW_ID = "row_id";
  /** Internal row + generation: the term {@code updateDocuments} replaces. */
  static final String F_ROW_GEN = "row_gen";
  static final String F_SOURCE_ID = "source_id";
  static final String F_TABLE = "table";
  /** Internal table identity (source + table). */
  static final String F_TABLE_REF = "table_ref";
  /** Internal table + generation: the active-generation filter. */
  static final String F_TABLE_GEN = "table_gen";
  static final String F_ROW_KEY = "row_key";
  static final String F_PATIENT = "patient";
  /** The patient's label ({@link PatientLabel}), stored. */
  static final String F_PATIENT_NUMBER = "patient_number";
  static final String F_PATIENT_NAME = "patient_name";
  static final String F_PATIENT_BIRTH_YEAR = "patient_birth_year";
  /** The folded words of the patient's name, number and key ({@link PatientTerms}), on the row's head: patients by name. */
  static final String F_PATIENT_TERM = "patient_term";
  static final String F_GENERATION = "generation";
  static final String F_TEXT = "text";
  /** The whole row's text (chunks rejoined), indexed on the row's head chunk only: row-level BM25. */
  static final String F_ROW_TEXT = "row_text";
  /** The row's opening (its first {@value #OPENING_TERMS} terms), on the head chunk: the row's title, as it were. */
  static final String F_ROW_OPENING = "row_opening";
  static final String F_VECTOR = "vector";
  static final String F_SOURCE_POSITION = "source_position";
  static final String F_COMMIT_TS_MS = "commit_ts_ms";
  static final String F_MODEL_ID = "model_id";
  static final String F_CHUNK_INDEX = "chunk_index";
  static final String F_CHUNK_COUNT = "chunk_count";
  /** Present ("1") on exactly one chunk per row and generation: distinct-row counts without a scan. */
  static final String F_ROW_HEAD = "row_head";
  static final String ROW_HEAD_VALUE = "1";
  /**
   * Row sets, on the row head: the internal row key and the patient key as doc values (row order, distinct patients),
   * the names of the columns that hold a value (present, absent) and of those whose value is too long for a term
   * ({@link #MAX_TERM_BYTES}: read from storage instead).
   */
  static final String F_ROW_ORDER = "row_order";
  static final String F_PATIENT_VALUES = "patient_values";
  static final String F_FIELD_NAME = "field_name";
  static final String F_FIELD_LONG = "field_long";
  /** "1" on a row head that carries fields: the rows without any are counted apart. */
  static final String F_HAS_FIELDS = "has_fields";
  /** The longest term (and doc value) Lucene indexes, in UTF-8 bytes. */
  static final int MAX_TERM_BYTES = IndexWriter.MAX_TERM_LENGTH;
  /**
   * Per-column field name prefixes on the row head: the folded whole value (keyword: equality and ranges), the folded
   * words (keywords: "has words"), the value as written (sorted-set doc values: distinct values, latest, earliest).
   */
  static final String FIELD_VALUE_PREFIX = "fv.";
  static final String FIELD_WORD_PREFIX = "fw.";
  static final String FIELD_DOC_VALUE_PREFIX = "fd.";
  /** The chunk's row fields ({@link StoredChunk#fields}), stored as parallel column and value lists. */
  static final String F_FIELD_COLUMNS = "field_columns";
  static final String F_FIELD_VALUES = "field_values";

  // ---- commit user data
  static final String META_FORMAT = "chartstream.store.format";
  static final String META_DIMENSION = "chartstream.store.vector.dimension";
  static final String META_GENERATION_PREFIX = "chartstream.store.active/";
  static final String CHECKPOINT_PREFIX = "checkpoint/";
  /**
   * The index format: what the fields hold and how their text is analysed. An index of another format is discarded
   * at open and rebuilt from the index log ({@link OldIndexFormat}). 2: accents folded ({@link FoldingEnglishAnalyzer}).
   * 3: the patient's label stored and its terms indexed ({@link #F_PATIENT_TERM}). 4: the row's fields stored, and
   * indexed on its head for row sets ({@link #FIELD_VALUE_PREFIX}, {@link #F_ROW_ORDER}).
   */
  static final String FORMAT_VERSION = "4";

  /** Separates parts of internal keys; rejected inside ids. */
  private static final char SEP = '\u001F';

  /**
   * Terms of a row's opening: the record type, and for a passage the question or heading it starts with. Measured on
   * liveqa-med-clean (docs/history/EVALUATION-sessions-1-21.md, "What closed the gap"): the opening as a second BM25
   * field lifts row-level BM25 from 0.69 to 0.8.
   */
  static final int OPENING_TERMS = 16;

  private static final int HNSW_MAX_CONN = 16;
  private static final int HNSW_BEAM_WIDTH = 100;
  static final int HNSW_MERGE_WORKERS = 2;
  /**
   * Vectors are stored twice: int8 scalar-quantised (what the HNSW graph is searched with, a quarter of float32's
   * size) and float32 (for rescoring the candidates, and the vectors rows and hits carry).
   */
  private static final ScalarEncoding VECTOR_ENCODING = ScalarEncoding.UNSIGNED_BYTE;

  private LuceneSchema() {}

  /** The HNSW format of the vector field, merging graphs on {@code mergeExecutor}. */
  static KnnVectorsFormat vectorsFormat(ExecutorService mergeExecutor) {
    return new Lucene104HnswScalarQuantizedVectorsFormat(VECTOR_ENCODING, HNSW_MAX_CONN, HNSW_BEAM_WIDTH,
        HNSW_MERGE_WORKERS, mergeExecutor);
  }

  /**
   * The default codec with every vector field in {@code format}. Same codec name as the default: the index reads back
   * with the default codec, whose per-field vectors format looks the field's format up by the name it recorded.
   */
  static Codec codec(KnnVectorsFormat format) {
    Codec base = Codec.getDefault();
    KnnVectorsFormat perField = new PerFieldKnnVectorsFormat() {
      @Override
      public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
        return format;
      }
    };
    return new FilterCodec(base.getName(), base) {
      @Override
      public KnnVectorsFormat knnVectorsFormat() {
        return perField;
      }
    };
  }

  /** What the writer analyses fields with: English everywhere, and only the opening terms of the opening. */
  static Analyzer indexAnalyzer(Analyzer analyzer) {
    return new PerFieldAnalyzerWrapper(analyzer,
        Map.of(F_ROW_OPENING, new LimitTokenCountAnalyzer(analyzer, OPENING_TERMS)));
  }

  /** One document per chunk, in the given order; the first is the row's head and carries the whole row's text. */
  static List<Document> rowDocuments(List<StoredChunk> chunks) {
    List<Document> docs = new ArrayList<>(chunks.size());
    for (int i = 0; i < chunks.size(); i++) {
      docs.add(toDocument(chunks.get(i), i == 0));
    }
    String rowText = rowText(chunks);
    docs.get(0).add(new TextField(F_ROW_TEXT, rowText, Field.Store.NO));
    docs.get(0).add(new TextField(F_ROW_OPENING, rowText, Field.Store.NO));
    return docs;
  }

  private static String rowText(List<StoredChunk> chunks) {
    if (chunks.size() == 1) {
      return chunks.get(0).text();
    }
    List<StoredChunk> ordered = new ArrayList<>(chunks);
    ordered.sort(Comparator.comparingInt(StoredChunk::chunkIndex));
    return RowTextRejoiner.rejoin(ordered.stream().map(StoredChunk::text).toList());
  }

  private static Document toDocument(StoredChunk c, boolean rowHead) {
    RowRef row = c.row();
    Document d = new Document();
    d.add(new StringField(F_CHUNK_ID, c.chunkId(), Field.Store.YES));
    d.add(new StringField(F_ROW, rowKey(row), Field.Store.NO));
    d.add(new StringField(F_ROW_ID, row.id(), Field.Store.NO));
    d.add(new StringField(F_ROW_GEN, rowGenKey(row, c.generation()), Field.Store.NO));
    d.add(new StringField(F_SOURCE_ID, row.sourceId(), Field.Store.YES));
    d.add(new StringField(F_TABLE, row.table(), Field.Store.YES));
    d.add(new StringField(F_TABLE_REF, tableKey(row.tableRef()), Field.Store.NO));
    d.add(new StringField(F_TABLE_GEN, tableGenKey(row.tableRef(), c.generation()), Field.Store.NO));
    d.add(new StringField(F_ROW_KEY, row.rowKey(), Field.Store.YES));
    if (c.patientKey() != null) {
      d.add(new StringField(F_PATIENT, c.patientKey(), Field.Store.YES));
    }
    addPatientLabel(d, c.patient());
    if (rowHead) {
      PatientTerms.of(c).forEach(term -> d.add(new StringField(F_PATIENT_TERM, term, Field.Store.NO)));
    }
    d.add(new LongPoint(F_GENERATION, c.generation()));
    d.add(new StoredField(F_GENERATION, c.generation()));
    d.add(new TextField(F_TEXT, c.text(), Field.Store.YES));
    d.add(new KnnFloatVectorField(F_VECTOR, c.vector(), VectorSimilarityFunction.COSINE));
    if (c.sourcePosition() != null) {
      d.add(new StoredField(F_SOURCE_POSITION, c.sourcePosition()));
    }
    d.add(new StoredField(F_COMMIT_TS_MS, c.commitTsMs()));
    if (c.modelId() != null) {
      d.add(new StoredField(F_MODEL_ID, c.modelId()));
    }
    d.add(new StoredField(F_CHUNK_INDEX, c.chunkIndex()));
    d.add(new StoredField(F_CHUNK_COUNT, c.chunkCount()));
    c.fields().forEach((column, value) -> {
      d.add(new StoredField(F_FIELD_COLUMNS, column));
      d.add(new StoredField(F_FIELD_VALUES, value));
    });
    if (rowHead) {
      d.add(new StringField(F_ROW_HEAD, ROW_HEAD_VALUE, Field.Store.NO));
      d.add(new SortedDocValuesField(F_ROW_ORDER, new BytesRef(rowKey(row))));
      if (c.patientKey() != null) {
        d.add(new SortedDocValuesField(F_PATIENT_VALUES, new BytesRef(c.patientKey())));
      }
      c.fields().forEach((column, value) -> addRowField(d, column, value));
      if (!c.fields().isEmpty()) {
        d.add(new StringField(F_HAS_FIELDS, ROW_HEAD_VALUE, Field.Store.NO));
      }
    }
    return d;
  }

  /** One of the row's fields as row sets find it (on the row head only, so a row counts once). */
  private static void addRowField(Document d, String column, String value) {
    d.add(new StringField(F_FIELD_NAME, column, Field.Store.NO));
    String folded = FieldValues.folded(value);
    if (fitsTerm(folded) && fitsTerm(value)) {
      d.add(new StringField(FIELD_VALUE_PREFIX + column, folded, Field.Store.NO));
      d.add(new SortedSetDocValuesField(FIELD_DOC_VALUE_PREFIX + column, new BytesRef(value)));
    } else {
      d.add(new StringField(F_FIELD_LONG, column, Field.Store.NO));
    }
    for (String word : FieldValues.words(value)) {
      if (fitsTerm(word)) {
        d.add(new StringField(FIELD_WORD_PREFIX + column, word, Field.Store.NO));
      }
    }
  }

  private static boolean fitsTerm(String s) {
    return s.length() * 3L <= MAX_TERM_BYTES || s.getBytes(StandardCharsets.UTF_8).length <= MAX_TERM_BYTES;
  }

  private static void addPatientLabel(Document d, PatientLabel label) {
    if (label == null) {
      return;
    }
    if (label.number() != null) {
      d.add(new StoredField(F_PATIENT_NUMBER, label.number()));
    }
    if (label.name() != null) {
      d.add(new StoredField(F_PATIENT_NAME, label.name()));
    }
    if (label.birthYear() != null) {
      d.add(new StoredField(F_PATIENT_BIRTH_YEAR, label.birthYear()));
    }
  }

  /** The chunk a document's stored fields describe, with {@code vector} (read from the vector field, not stored). */
  static StoredChunk toChunk(Document d, float[] vector) {
    RowRef row = new RowRef(d.get(F_SOURCE_ID), d.get(F_TABLE), d.get(F_ROW_KEY));
    return new StoredChunk(
        d.get(F_CHUNK_ID),
        row,
        d.getField(F_CHUNK_INDEX).numericValue().intValue(),
        d.getField(F_CHUNK_COUNT).numericValue().intValue(),
        d.getField(F_GENERATION).numericValue().longValue(),
        d.get(F_TEXT),
        vector,
        d.get(F_PATIENT),
        PatientLabel.of(d.get(F_PATIENT_NUMBER), d.get(F_PATIENT_NAME), birthYear(d)),
        d.get(F_SOURCE_POSITION),
        d.getField(F_COMMIT_TS_MS).numericValue().longValue(),
        d.get(F_MODEL_ID),
        rowFields(d));
  }

  /** The row fields a document stores, in their written order. */
  static Map<String, String> rowFields(Document d) {
    String[] columns = d.getValues(F_FIELD_COLUMNS);
    if (columns.length == 0) {
      return Map.of();
    }
    String[] values = d.getValues(F_FIELD_VALUES);
    Map<String, String> out = new LinkedHashMap<>();
    for (int i = 0; i < columns.length; i++) {
      out.put(columns[i], values[i]);
    }
    return out;
  }

  private static Integer birthYear(Document d) {
    var field = d.getField(F_PATIENT_BIRTH_YEAR);
    return field == null ? null : field.numericValue().intValue();
  }

  /** The row of a document, as {@link #rowKey} renders it, without building the chunk. */
  static String rowKeyOf(Document d) {
    return rowKey(new RowRef(d.get(F_SOURCE_ID), d.get(F_TABLE), d.get(F_ROW_KEY)));
  }

  // ---- keys

  static void checkKeyPart(String... parts) {
    for (String p : parts) {
      if (p.indexOf(SEP) >= 0) {
        throw new IllegalArgumentException("ids must not contain the control character U+001F");
      }
    }
  }

  static String tableKey(TableRef t) {
    return t.sourceId() + SEP + t.table();
  }

  static String tableGenKey(TableRef t, long generation) {
    return tableKey(t) + SEP + generation;
  }

  static String rowKey(RowRef r) {
    return r.sourceId() + SEP + r.table() + SEP + r.rowKey();
  }

  static String rowGenKey(RowRef r, long generation) {
    return rowKey(r) + SEP + generation;
  }

  /** The commit user data key of a table's active generation: source and table URL-encoded, so "/" splits them. */
  static String generationKey(TableRef t) {
    return META_GENERATION_PREFIX + enc(t.sourceId()) + "/" + enc(t.table());
  }

  /** The table a {@link #generationKey} names (the key without its prefix). */
  static TableRef tableOfGenerationKey(String keyWithoutPrefix) {
    String[] parts = keyWithoutPrefix.split("/", -1);
    if (parts.length != 2) {
      throw new IllegalStateException("corrupt commit data key " + META_GENERATION_PREFIX + keyWithoutPrefix);
    }
    return new TableRef(dec(parts[0]), dec(parts[1]));
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  private static String dec(String s) {
    return URLDecoder.decode(s, StandardCharsets.UTF_8);
  }
}

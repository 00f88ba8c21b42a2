package org.chartstream.core.store;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One chunk of one row in one generation, as a store keeps it.
 *
 * @param chunkId {@code source:table:rowKey:chunkIndex:generation} (see {@link #chunkId(RowRef, int, long)})
 * @param row the row the chunk belongs to
 * @param chunkIndex 0-based position of the chunk within the row
 * @param chunkCount number of chunks of the row
 * @param generation generation the chunk was written for
 * @param text chunk text (lexical side, and what is cited)
 * @param vector the float32 embedding; stores return it with every search hit and row lookup
 * @param patientKey the patient the row belongs to, or {@code null} when the row has no patient
 * @param patient the patient's number, name and birth year as the ingest wrote them, or {@code null} (a row without a
 *     named patient, or a chunk written before chunks carried them)
 * @param sourcePosition source log position (LSN, binlog position) of the change that produced the row version
 * @param commitTsMs source commit time, epoch milliseconds
 * @param modelId embedding model id
 * @param fields the row's shown fields, column name to display value (the allow-listed columns its text shows: never
 *     an excluded one; their order means nothing, the index log does not keep it); the ingest writes them on the
 *     row's first chunk (chunk index 0) only, the others and a chunk written before chunks carried them have none.
 *     Never {@code null}
 */
public record StoredChunk(
    String chunkId,
    RowRef row,
    int chunkIndex,
    int chunkCount,
    long generation,
    String text,
    float[] vector,
    String patientKey,
    PatientLabel patient,
    String sourcePosition,
    long commitTsMs,
    String modelId,
    Map<String, String> fields) {

  public StoredChunk {
    Objects.requireNonNull(chunkId, "chunkId");
    fields = fields == null || fields.isEmpty() ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    fields.forEach((column, value) -> {
      if (column == null || column.isEmpty() || value == null) {
        throw new IllegalArgumentException("chunk " + chunkId + " has a field without a column name or value");
      }
    });
    Objects.requireNonNull(row, "row");
    Objects.requireNonNull(text, "text");
    if (chunkIndex < 0) {
      throw new IllegalArgumentException("chunkIndex must be >= 0: " + chunkIndex);
    }
    if (chunkCount < 1 || chunkIndex >= chunkCount) {
      throw new IllegalArgumentException(
          "chunkCount must be >= 1 and > chunkIndex: index=" + chunkIndex + " count=" + chunkCount);
    }
  }

  /** A chunk without row fields. */
  public StoredChunk(String chunkId, RowRef row, int chunkIndex, int chunkCount, long generation, String text,
      float[] vector, String patientKey, PatientLabel patient, String sourcePosition, long commitTsMs, String modelId) {
    this(chunkId, row, chunkIndex, chunkCount, generation, text, vector, patientKey, patient, sourcePosition,
        commitTsMs, modelId, Map.of());
  }

  /** A chunk without a {@link PatientLabel} or row fields. */
  public StoredChunk(String chunkId, RowRef row, int chunkIndex, int chunkCount, long generation, String text,
      float[] vector, String patientKey, String sourcePosition, long commitTsMs, String modelId) {
    this(chunkId, row, chunkIndex, chunkCount, generation, text, vector, patientKey, null, sourcePosition, commitTsMs,
        modelId, Map.of());
  }

  /** The design's chunk id: {@code {source_id}:{table}:{row_pk}:{chunk_index}:{generation}}. */
  public static String chunkId(RowRef row, int chunkIndex, long generation) {
    return RowRef.chunkId(row.sourceId(), row.table(), row.rowKey(), chunkIndex, generation);
  }

  /** The same chunk without its vector. */
  public StoredChunk withoutVector() {
    return vector == null ? this : withVector(null);
  }

  /** The same chunk with another vector. */
  public StoredChunk withVector(float[] newVector) {
    return new StoredChunk(chunkId, row, chunkIndex, chunkCount, generation, text, newVector, patientKey,
        patient, sourcePosition, commitTsMs, modelId, fields);
  }

  /** The same chunk with the row's fields. */
  public StoredChunk withFields(Map<String, String> newFields) {
    return new StoredChunk(chunkId, row, chunkIndex, chunkCount, generation, text, vector, patientKey, patient,
        sourcePosition, commitTsMs, modelId, newFields);
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof StoredChunk other)) {
      return false;
    }
    return chunkIndex == other.chunkIndex
        && chunkCount == other.chunkCount
        && generation == other.generation
        && commitTsMs == other.commitTsMs
        && chunkId.equals(other.chunkId)
        && row.equals(other.row)
        && text.equals(other.text)
        && Arrays.equals(vector, other.vector)
        && Objects.equals(patientKey, other.patientKey)
        && Objects.equals(patient, other.patient)
        && Objects.equals(sourcePosition, other.sourcePosition)
        && Objects.equals(modelId, other.modelId)
        && fields.equals(other.fields);
  }

  @Override
  public int hashCode() {
    return Objects.hash(chunkId, row, chunkIndex, chunkCount, generation, text, Arrays.hashCode(vector),
        patientKey, patient, sourcePosition, commitTsMs, modelId, fields);
  }

  /** No text, vector, patient key, label or field: safe for logs. */
  @Override
  public String toString() {
    return "StoredChunk[" + chunkId + ", " + (chunkIndex + 1) + "/" + chunkCount + ", gen=" + generation
        + ", dim=" + (vector == null ? "-" : vector.length) + ", model=" + modelId + "]";
  }
}

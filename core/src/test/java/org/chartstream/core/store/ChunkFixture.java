package org.chartstream.core.store;

import java.util.ArrayList;
import java.util.List;

/**
 * The one way tests build {@link StoredChunk}s: a row's chunk with test defaults for everything a test does not care
 * about (generation 1, one chunk, no vector, patient {@code p1}, model {@code test-model}, a source position and
 * commit time derived from the chunk's place). Immutable; every {@code with…} returns a new fixture.
 *
 * <pre>{@code
 * StoredChunk c = ChunkFixture.of("clinic", "notes", "n1").text("plan: stress test").vector(v).build();
 * List<StoredChunk> row = ChunkFixture.of(row).generation(2).rowOf("first part", "second part");
 * }</pre>
 */
public final class ChunkFixture {
  public static final String MODEL = "test-model";

  private final RowRef row;
  private final int index;
  private final int count;
  private final long generation;
  private final String text;
  private final float[] vector;
  private final String patient;
  private final PatientLabel label;
  private final String sourcePosition;
  private final long commitTsMs;
  private final String modelId;

  private ChunkFixture(RowRef row, int index, int count, long generation, String text, float[] vector, String patient,
      PatientLabel label, String sourcePosition, long commitTsMs, String modelId) {
    this.row = row;
    this.index = index;
    this.count = count;
    this.generation = generation;
    this.text = text;
    this.vector = vector;
    this.patient = patient;
    this.label = label;
    this.sourcePosition = sourcePosition;
    this.commitTsMs = commitTsMs;
    this.modelId = modelId;
  }

  public static ChunkFixture of(RowRef row) {
    return new ChunkFixture(row, 0, 1, 1, "text of " + row.id(), null, "p1", null, null, -1, MODEL);
  }

  public static ChunkFixture of(String sourceId, String table, String rowKey) {
    return of(new RowRef(sourceId, table, rowKey));
  }

  /** Chunk {@code index} of {@code count}. */
  public ChunkFixture index(int index, int count) {
    return new ChunkFixture(row, index, count, generation, text, vector, patient, label, sourcePosition, commitTsMs, modelId);
  }

  public ChunkFixture generation(long generation) {
    return new ChunkFixture(row, index, count, generation, text, vector, patient, label, sourcePosition, commitTsMs, modelId);
  }

  public ChunkFixture text(String text) {
    return new ChunkFixture(row, index, count, generation, text, vector, patient, label, sourcePosition, commitTsMs, modelId);
  }

  public ChunkFixture vector(float[] vector) {
    return new ChunkFixture(row, index, count, generation, text, vector, patient, label, sourcePosition, commitTsMs, modelId);
  }

  /** The patient key, or {@code null} for a row without a patient. */
  public ChunkFixture patient(String patient) {
    return new ChunkFixture(row, index, count, generation, text, vector, patient, label, sourcePosition, commitTsMs, modelId);
  }

  /** The patient's number, name and birth year as the ingest labels the row's chunks; none by default. */
  public ChunkFixture label(PatientLabel label) {
    return new ChunkFixture(row, index, count, generation, text, vector, patient, label, sourcePosition, commitTsMs, modelId);
  }

  public ChunkFixture source(String sourcePosition, long commitTsMs) {
    return new ChunkFixture(row, index, count, generation, text, vector, patient, label, sourcePosition, commitTsMs, modelId);
  }

  public ChunkFixture model(String modelId) {
    return new ChunkFixture(row, index, count, generation, text, vector, patient, label, sourcePosition, commitTsMs, modelId);
  }

  public StoredChunk build() {
    return new StoredChunk(StoredChunk.chunkId(row, index, generation), row, index, count, generation, text, vector,
        patient, label, sourcePosition != null ? sourcePosition : "lsn/" + generation + "/" + index,
        commitTsMs >= 0 ? commitTsMs : 1_700_000_000_000L + index, modelId);
  }

  /** One chunk per text, in order, each with this fixture's other fields (the vector, if any, shared). */
  public List<StoredChunk> rowOf(String... texts) {
    return rowOf(List.of(texts), null);
  }

  /**
   * One chunk per text, in order.
   *
   * @param vectors one vector per chunk, or {@code null} to give every chunk this fixture's vector
   */
  public List<StoredChunk> rowOf(List<String> texts, List<float[]> vectors) {
    List<StoredChunk> out = new ArrayList<>(texts.size());
    for (int i = 0; i < texts.size(); i++) {
      out.add(index(i, texts.size()).text(texts.get(i)).vector(vectors == null ? vector : vectors.get(i)).build());
    }
    return out;
  }
}

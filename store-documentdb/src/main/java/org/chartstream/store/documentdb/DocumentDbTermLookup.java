package org.chartstream.store.documentdb;

import static org.chartstream.store.documentdb.DocumentDbDatabase.BATCH_SIZE;
import static org.chartstream.store.documentdb.DocumentDbPipelines.CHUNK_COUNT;
import static org.chartstream.store.documentdb.DocumentDbPipelines.CHUNK_ID;
import static org.chartstream.store.documentdb.DocumentDbPipelines.CHUNK_INDEX;
import static org.chartstream.store.documentdb.DocumentDbPipelines.COMMIT_TS_MS;
import static org.chartstream.store.documentdb.DocumentDbPipelines.GENERATION;
import static org.chartstream.store.documentdb.DocumentDbPipelines.ID;
import static org.chartstream.store.documentdb.DocumentDbPipelines.MODEL_ID;
import static org.chartstream.store.documentdb.DocumentDbPipelines.PATIENT;
import static org.chartstream.store.documentdb.DocumentDbPipelines.PATIENT_BIRTH_YEAR;
import static org.chartstream.store.documentdb.DocumentDbPipelines.PATIENT_NAME;
import static org.chartstream.store.documentdb.DocumentDbPipelines.PATIENT_NUMBER;
import static org.chartstream.store.documentdb.DocumentDbPipelines.ROW_KEY;
import static org.chartstream.store.documentdb.DocumentDbPipelines.SOURCE_ID;
import static org.chartstream.store.documentdb.DocumentDbPipelines.SOURCE_POSITION;
import static org.chartstream.store.documentdb.DocumentDbPipelines.TABLE;
import static org.chartstream.store.documentdb.DocumentDbPipelines.TEXT;
import static org.chartstream.store.documentdb.DocumentDbSchema.FIELDS;

import com.mongodb.client.MongoCollection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.bson.Document;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.core.store.TermIndex;

/**
 * {@link TermIndex#rowsWithTerm} on one committed epoch, by {@code $regex} over the chunks' text ({@link TermPattern}),
 * in two reads that never touch a vector: the matching chunks' row keys and chunk index only (every matching row
 * counts towards the total), then the first matching chunk of each of the first {@code cap} rows, by {@code _id},
 * with the stored fields a chunk is made of. A term too long for the engine's regex ({@value #MAX_TERM_CHARS}) is
 * matched there by its prefix and verified whole on the candidates' text.
 */
final class DocumentDbTermLookup {

  /**
   * The longest term (folded characters) the engine matches by {@code $regex} alone: each letter becomes a class of
   * its accented forms, and the engine refuses a caseless {@code $regex} of about 760 letters ("regular expression is
   * too large"). A longer term is matched there by its first {@value #MAX_TERM_CHARS} characters and verified whole
   * here, on the candidates' text.
   */
  static final int MAX_TERM_CHARS = 190;

  /** The first read: which rows and chunks match, nothing else. */
  static final Document MATCHING_CHUNK_KEYS = new Document(ID, 1).append(SOURCE_ID, 1).append(TABLE, 1)
      .append(ROW_KEY, 1).append(CHUNK_INDEX, 1);

  /** The first read of a term too long for the engine's regex: also the text, to verify the whole term. */
  static final Document MATCHING_CHUNK_KEYS_AND_TEXT = new Document(MATCHING_CHUNK_KEYS).append(TEXT, 1);

  /** The second read: a chunk's stored fields without its vector, opening, folded fields or patient terms. */
  static final Document STORED_CHUNK_WITHOUT_VECTOR = new Document(ID, 0).append(CHUNK_ID, 1).append(SOURCE_ID, 1)
      .append(TABLE, 1).append(ROW_KEY, 1).append(CHUNK_INDEX, 1).append(CHUNK_COUNT, 1).append(GENERATION, 1)
      .append(TEXT, 1).append(PATIENT, 1).append(PATIENT_NUMBER, 1).append(PATIENT_NAME, 1)
      .append(PATIENT_BIRTH_YEAR, 1).append(SOURCE_POSITION, 1).append(COMMIT_TS_MS, 1).append(MODEL_ID, 1)
      .append(FIELDS, 1);

  private final MongoCollection<Document> records;

  DocumentDbTermLookup(MongoCollection<Document> records) {
    this.records = records;
  }

  /** @throws IllegalArgumentException if {@code cap < 1} */
  TermIndex.TermRows rowsWithTerm(DocumentDbSearcher.ReadView view, String term, RetrievalFilter filter, int cap) {
    Objects.requireNonNull(term, "term");
    if (cap < 1) {
      throw new IllegalArgumentException("cap must be >= 1: " + cap);
    }
    String regex = engineRegex(term);
    if (regex == null || view.active().isEmpty()) {
      return TermIndex.TermRows.NONE;
    }
    Pattern whole = isMatchedByPrefix(term)
        ? Pattern.compile(TermPattern.of(term), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE) : null;
    Document match = termMatch(view.epoch(), view.activeKeys(), filter, regex);
    TreeMap<String, Document> firstChunkByRowId = new TreeMap<>();
    Document read = whole == null ? MATCHING_CHUNK_KEYS : MATCHING_CHUNK_KEYS_AND_TEXT;
    for (Document d : records.find(match).projection(read).batchSize(BATCH_SIZE)) {
      if (whole != null && !whole.matcher(d.getString(TEXT)).find()) {
        continue;
      }
      String rowId = new RowRef(d.getString(SOURCE_ID), d.getString(TABLE), d.getString(ROW_KEY)).id();
      firstChunkByRowId.merge(rowId, d, (a, b) -> chunkIndex(a) <= chunkIndex(b) ? a : b);
    }
    List<Object> ids = firstChunkByRowId.values().stream().limit(cap).map(d -> d.get(ID)).toList();
    Map<String, StoredChunk> cited = new TreeMap<>();
    if (!ids.isEmpty()) {
      for (Document d : records.find(citedChunks(ids)).projection(STORED_CHUNK_WITHOUT_VECTOR)
          .batchSize(BATCH_SIZE)) {
        StoredChunk c = DocumentDbSchema.toChunk(d);
        cited.put(c.row().id(), c);
      }
    }
    return new TermIndex.TermRows(new ArrayList<>(cited.values()), firstChunkByRowId.size());
  }

  /**
   * The {@code $regex} the engine matches for the term: the whole term's, or for a term longer than
   * {@value #MAX_TERM_CHARS} folded characters its prefix's; {@code null} when it has no letter or digit.
   */
  static String engineRegex(String term) {
    return isMatchedByPrefix(term) ? TermPattern.prefixOf(term, MAX_TERM_CHARS) : TermPattern.of(term);
  }

  private static boolean isMatchedByPrefix(String term) {
    return TermPattern.fold(term).length() > MAX_TERM_CHARS;
  }

  /** The committed chunks of the active generations, within the filter, whose text holds the term. */
  static Document termMatch(long epoch, List<String> activeKeys, RetrievalFilter filter, String regex) {
    return DocumentDbPipelines.searchFilter(epoch, activeKeys, filter)
        .append(TEXT, new Document("$regex", regex).append("$options", "i"));
  }

  /** The chunks cited for the rows, by {@code _id}. */
  static Document citedChunks(List<Object> ids) {
    return new Document(ID, new Document("$in", ids));
  }

  private static int chunkIndex(Document d) {
    return d.get(CHUNK_INDEX, Number.class).intValue();
  }
}

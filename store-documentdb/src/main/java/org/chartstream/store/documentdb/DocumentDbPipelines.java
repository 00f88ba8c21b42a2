package org.chartstream.store.documentdb;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.bson.BsonArray;
import org.bson.BsonDouble;
import org.bson.Document;
import org.chartstream.core.store.RetrievalFilter;

/**
 * The commands and aggregation pipelines {@link DocumentDbHybridStore} sends, as plain BSON documents (tests pin
 * them as golden JSON). Generations and epochs are int64.
 */
final class DocumentDbPipelines {

  // ---- record fields
  static final String ID = "_id";
  static final String CHUNK_ID = "chunk_id";
  static final String SOURCE_ID = "source_id";
  static final String TABLE = "table";
  static final String ROW_KEY = "row_key";
  /** Both the bare row key and the row id {@code source:table:rowKey}: one indexed field for row filters. */
  static final String ROW_REFS = "row_refs";
  /** {@code source, table, generation} joined by U+001F: the active-generation filter. */
  static final String TABLE_GEN = "table_gen";
  static final String GENERATION = "generation";
  static final String PATIENT = "patient";
  /** The patient's label ({@code PatientLabel}): on every chunk of a row that names its patient. */
  static final String PATIENT_NUMBER = "patient_number";
  static final String PATIENT_NAME = "patient_name";
  static final String PATIENT_BIRTH_YEAR = "patient_birth_year";
  /** The folded words of the patient's name, number and key ({@code PatientTerms}), on the row head: patients by name. */
  static final String PATIENT_TERMS = "patient_terms";
  static final String TEXT = "text";
  /** The chunk's first {@value #OPENING_WORDS} words: the header every chunk repeats (record type, patient). */
  static final String OPENING = "opening";
  /** Computed per lexical hit for its tie-break, never stored. */
  static final String TEXT_CHARS = "text_chars";
  static final String VECTOR = "vector";
  static final String CHUNK_INDEX = "chunk_index";
  static final String CHUNK_COUNT = "chunk_count";
  static final String SOURCE_POSITION = "source_position";
  static final String COMMIT_TS_MS = "commit_ts_ms";
  static final String MODEL_ID = "model_id";
  /** True on the first chunk of each row version: distinct-row counts. */
  static final String ROW_HEAD = "row_head";
  /** The commit epoch that wrote the chunk. */
  static final String EPOCH_ADDED = "epoch_added";
  /** The commit epoch that replaced or deleted the chunk; {@link #LIVE} while it is current. */
  static final String EPOCH_REMOVED = "epoch_removed";
  static final String SCORE = "score";

  static final long LIVE = Long.MAX_VALUE;
  static final char SEP = '\u001F';

  static final String VECTOR_INDEX_NAME = "vector_cosmos_search";
  static final String TEXT_INDEX_NAME = "text_search";

  /**
   * The text index's field weights: the opening counts twice, as the Lucene store boosts its row opening. The engine
   * ranks a weighted two-field text index by weight.
   */
  static final Document TEXT_WEIGHTS = new Document(TEXT, 1).append(OPENING, 2);
  static final int OPENING_WORDS = 16;
  /** RRF's constant: a lexical hit's score is {@code 1 / (LEXICAL_RANK_OFFSET + rank)}. */
  static final int LEXICAL_RANK_OFFSET = 60;

  private static final Pattern WHITESPACE = Pattern.compile("\\s+");

  private DocumentDbPipelines() {}

  static String tableGenKey(String sourceId, String table, long generation) {
    return sourceId + SEP + table + SEP + generation;
  }

  /**
   * The restriction every search applies: the active generations' chunks as of commit {@code epoch} (written at or
   * before it, not removed by it), and the caller's filter. One condition per field, so the document can go
   * into {@code cosmosSearch.filter}, a {@code $match} and a count alike.
   */
  static Document searchFilter(long epoch, Collection<String> activeTableGenKeys, RetrievalFilter filter) {
    RetrievalFilter f = filter == null ? RetrievalFilter.NONE : filter;
    Document d = new Document(TABLE_GEN, new Document("$in", sorted(activeTableGenKeys)))
        .append(EPOCH_ADDED, new Document("$lte", epoch))
        .append(EPOCH_REMOVED, new Document("$gt", epoch));
    if (!f.tables().isEmpty()) {
      d.append(TABLE, new Document("$in", sorted(f.tables())));
    }
    if (!f.sourceIds().isEmpty()) {
      d.append(SOURCE_ID, new Document("$in", sorted(f.sourceIds())));
    }
    if (!f.rowKeys().isEmpty()) {
      d.append(ROW_REFS, new Document("$in", sorted(f.rowKeys())));
    }
    if (f.patient() != null) {
      d.append(PATIENT, f.patient());
    }
    return d;
  }

  /** Values in a stable order: the same filter always gives the same command. */
  private static List<String> sorted(Collection<String> values) {
    return List.copyOf(new TreeSet<>(values));
  }

  /**
   * Filtered kNN: the filter is inside {@code cosmosSearch}. With {@link #exactSearch()} the engine scans every
   * matching vector and returns the true top k; otherwise its approximate search returns up to k matching hits, as
   * many as pgvector's iterative scan reaches (a very selective filter can leave fewer).
   *
   * @param searchOptions {@code efSearch} (HNSW), {@code nProbes} (IVF), {@code exact}, or none for the engine's
   *     defaults
   */
  static List<Document> vectorSearch(float[] query, int k, Document searchOptions, Document filter) {
    Document cosmosSearch = new Document("vector", vector(query))
        .append("path", VECTOR)
        .append("k", k);
    cosmosSearch.putAll(searchOptions);
    cosmosSearch.append("filter", filter);
    return List.of(
        new Document("$search", new Document("cosmosSearch", cosmosSearch).append("returnStoredSource", true)),
        resultProjection("searchScore"));
  }

  /** The {@code cosmosSearch} option for a scan of every vector that passes the filter. */
  static Document exactSearch() {
    return new Document("exact", true);
  }

  /**
   * Over-fetch without a filter, then {@code $match} and {@code $limit}: for servers without filtered vector
   * search. Not exact: a selective filter can leave fewer than k of the {@code fetch} candidates.
   */
  static List<Document> vectorSearchPostFiltered(float[] query, int k, int fetch, Document searchOptions,
      Document filter) {
    Document cosmosSearch = new Document("vector", vector(query))
        .append("path", VECTOR)
        .append("k", fetch);
    cosmosSearch.putAll(searchOptions);
    return List.of(
        new Document("$search", new Document("cosmosSearch", cosmosSearch).append("returnStoredSource", true)),
        new Document("$match", filter),
        new Document("$limit", k),
        resultProjection("searchScore"));
  }

  /**
   * Text search: {@code $text} and the filter in one {@code $match}, best text score first. The engine's text
   * score is {@code ts_rank_cd} without IDF or length normalisation, so every chunk that holds a query word once
   * scores 1.0; ties go to the shorter chunk (BM25 would rank it higher at the same term count), then in row order
   * (source, table, row key) and chunk order, so the order is stable and never the alphabetically first chunk ids.
   */
  static List<Document> lexicalSearch(String textSearch, int k, Document filter) {
    Document match = new Document("$text", new Document("$search", textSearch));
    match.putAll(filter);
    return List.of(
        new Document("$match", match),
        new Document("$addFields", new Document(TEXT_CHARS, new Document("$strLenCP", "$" + TEXT))),
        new Document("$sort", new Document(SCORE, new Document("$meta", "textScore"))
            .append(TEXT_CHARS, 1)
            .append(SOURCE_ID, 1)
            .append(TABLE, 1)
            .append(ROW_KEY, 1)
            .append(CHUNK_INDEX, 1)),
        new Document("$limit", k),
        resultProjection("textScore"));
  }

  /**
   * The score a lexical hit is returned with: from its rank, not the engine's coarse text score. A fusion that
   * min-max normalises each side would turn a list of 1.0 ties, or a 1.0 against a 0.9, into full weight for the
   * first hits and none for the rest; a rank score falls evenly down the list instead (nearly linear after
   * normalisation, the constant is reciprocal rank fusion's).
   */
  static double lexicalRankScore(int rank) {
    return 1.0 / (LEXICAL_RANK_OFFSET + rank);
  }

  /** The stored fields of a hit, its vector included (a reranker scores with it), and its score. */
  private static Document resultProjection(String scoreMeta) {
    return new Document("$project", new Document(ID, 0)
        .append(CHUNK_ID, 1)
        .append(SOURCE_ID, 1)
        .append(TABLE, 1)
        .append(ROW_KEY, 1)
        .append(CHUNK_INDEX, 1)
        .append(CHUNK_COUNT, 1)
        .append(GENERATION, 1)
        .append(TEXT, 1)
        .append(PATIENT, 1)
        .append(PATIENT_NUMBER, 1)
        .append(PATIENT_NAME, 1)
        .append(PATIENT_BIRTH_YEAR, 1)
        .append(SOURCE_POSITION, 1)
        .append(COMMIT_TS_MS, 1)
        .append(MODEL_ID, 1)
        .append(VECTOR, 1)
        .append(SCORE, new Document("$meta", scoreMeta)));
  }

  /**
   * The {@code createIndexes} command for the cosmosSearch vector index.
   *
   * @param ivfLists the IVF index's {@code numLists} (ignored for HNSW)
   */
  static Document vectorIndexCommand(String collection, DocumentDbSettings settings, int ivfLists) {
    Document options = new Document("kind", settings.vectorIndexKind().kind());
    switch (settings.vectorIndexKind()) {
      case HNSW -> options.append("m", settings.hnswM()).append("efConstruction", settings.hnswEfConstruction());
      case IVF -> options.append("numLists", ivfLists);
      default -> throw new IllegalStateException("unknown index kind " + settings.vectorIndexKind());
    }
    options.append("similarity", "COS").append("dimensions", settings.dimension());
    return new Document("createIndexes", collection).append("indexes", List.of(
        new Document("name", VECTOR_INDEX_NAME)
            .append("key", new Document(VECTOR, "cosmosSearch"))
            .append("cosmosSearchOptions", options)));
  }

  /**
   * The {@code cosmosSearchOptions} ({@code kind}, {@code dimensions}, {@code numLists}, …) of the vector index
   * among {@code listIndexes} entries, or {@code null} when there is none.
   */
  static Document vectorIndexOptions(Iterable<Document> indexes) {
    for (Document index : indexes) {
      if (VECTOR_INDEX_NAME.equals(index.getString("name"))) {
        Document options = index.get("cosmosSearchOptions", Document.class);
        return options == null ? new Document() : options;
      }
    }
    return null;
  }

  /** The {@code createIndexes} command for the weighted text index over the chunk text and its opening. */
  static Document textIndexCommand(String collection) {
    return new Document("createIndexes", collection).append("indexes", List.of(
        new Document("name", TEXT_INDEX_NAME)
            .append("key", new Document(TEXT, "text").append(OPENING, "text"))
            .append("weights", TEXT_WEIGHTS)
            .append("default_language", "english")));
  }

  /** The command that drops the text index, when an existing one has other fields or weights. */
  static Document dropTextIndexCommand(String collection) {
    return new Document("dropIndexes", collection).append("index", TEXT_INDEX_NAME);
  }

  /** Whether a {@code listIndexes} entry is the text index {@link #textIndexCommand} creates: same weights. */
  static boolean isCurrentTextIndex(Document index) {
    Document weights = index.get("weights", Document.class);
    if (weights == null || !weights.keySet().equals(TEXT_WEIGHTS.keySet())) {
      return false;
    }
    for (String field : TEXT_WEIGHTS.keySet()) {
      if (!(weights.get(field) instanceof Number n) || n.doubleValue() != TEXT_WEIGHTS.getInteger(field)) {
        return false;
      }
    }
    return true;
  }

  /** A chunk's opening: its first {@value #OPENING_WORDS} words. */
  static String opening(String text) {
    String[] words = WHITESPACE.split(text.strip(), OPENING_WORDS + 1);
    return String.join(" ", List.of(words).subList(0, Math.min(words.length, OPENING_WORDS)));
  }

  /** A query vector as a BSON array of doubles (the engine indexes number arrays). */
  static BsonArray vector(float[] v) {
    BsonArray out = new BsonArray(new ArrayList<>(v.length));
    for (float f : v) {
      out.add(new BsonDouble(f));
    }
    return out;
  }
}

package org.chartstream.store.documentdb;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
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
  static final String TEXT = "text";
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

  /** Upper bounds keep a pasted document from becoming a giant text query. */
  static final int MAX_TEXT_TERMS = 256;
  static final int MAX_TEXT_PHRASES = 32;
  static final int MAX_TEXT_CHARS = 20_000;

  private static final Pattern PHRASE = Pattern.compile("\"([^\"]*)\"");
  private static final Pattern SEARCHABLE = Pattern.compile("[\\p{L}\\p{N}]");

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

  /** BM25-style text search: {@code $text} and the filter in one {@code $match}, best text score first. */
  static List<Document> lexicalSearch(String textSearch, int k, Document filter) {
    Document match = new Document("$text", new Document("$search", textSearch));
    match.putAll(filter);
    return List.of(
        new Document("$match", match),
        new Document("$sort", new Document(SCORE, new Document("$meta", "textScore")).append(CHUNK_ID, 1)),
        new Document("$limit", k),
        resultProjection("textScore"));
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
        .append(SOURCE_POSITION, 1)
        .append(COMMIT_TS_MS, 1)
        .append(MODEL_ID, 1)
        .append(VECTOR, 1)
        .append(SCORE, new Document("$meta", scoreMeta)));
  }

  /** The {@code createIndexes} command for the cosmosSearch vector index. */
  static Document vectorIndexCommand(String collection, DocumentDbSettings settings) {
    Document options = new Document("kind", settings.vectorIndexKind().kind());
    switch (settings.vectorIndexKind()) {
      case HNSW -> options.append("m", settings.hnswM()).append("efConstruction", settings.hnswEfConstruction());
      case IVF -> options.append("numLists", settings.ivfNumLists());
      default -> throw new IllegalStateException("unknown index kind " + settings.vectorIndexKind());
    }
    options.append("similarity", "COS").append("dimensions", settings.dimension());
    return new Document("createIndexes", collection).append("indexes", List.of(
        new Document("name", VECTOR_INDEX_NAME)
            .append("key", new Document(VECTOR, "cosmosSearch"))
            .append("cosmosSearchOptions", options)));
  }

  /**
   * The {@code $text} search string for a user's question, or {@code null} when it has no searchable term. Nothing
   * in the question is an operator: a leading {@code -} (negation) is dropped, unbalanced quotes are punctuation,
   * balanced double quotes stay a phrase. (In {@code $text} a phrase is required when present, where the Lucene
   * store only ranks it higher.)
   */
  static String textSearch(String question) {
    if (question == null || question.isBlank()) {
      return null;
    }
    String text = question.length() > MAX_TEXT_CHARS ? question.substring(0, MAX_TEXT_CHARS) : question;
    text = text.replace('\u201C', '"').replace('\u201D', '"').replace('\u201E', '"');
    List<String> phrases = new ArrayList<>();
    StringBuilder rest = new StringBuilder();
    Matcher m = PHRASE.matcher(text);
    int last = 0;
    while (m.find()) {
      rest.append(text, last, m.start()).append(' ');
      String phrase = String.join(" ", words(m.group(1), Integer.MAX_VALUE));
      if (!phrase.isEmpty() && phrases.size() < MAX_TEXT_PHRASES) {
        phrases.add(phrase);
      }
      last = m.end();
    }
    rest.append(text.substring(last).replace('"', ' '));
    List<String> parts = new ArrayList<>(words(rest.toString(), MAX_TEXT_TERMS));
    for (String phrase : phrases) {
      parts.add('"' + phrase + '"');
    }
    return parts.isEmpty() ? null : String.join(" ", parts);
  }

  /** Distinct whitespace-separated words that have a letter or digit, without leading minus signs. */
  private static Set<String> words(String text, int max) {
    Set<String> out = new LinkedHashSet<>();
    for (String raw : text.trim().split("\\s+")) {
      String w = raw;
      while (w.startsWith("-")) {
        w = w.substring(1);
      }
      if (!w.isEmpty() && SEARCHABLE.matcher(w).find()) {
        out.add(w);
        if (out.size() >= max) {
          break;
        }
      }
    }
    return out;
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

package org.chartstream.store.documentdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.MongoClientSettings;
import com.mongodb.MongoCommandException;
import com.mongodb.ServerAddress;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.stream.IntStream;
import org.bson.BsonDocument;
import org.bson.BsonType;
import org.bson.Document;
import org.bson.json.JsonMode;
import org.bson.json.JsonWriterSettings;
import org.chartstream.core.store.ChunkFixture;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.SearchHit;
import org.chartstream.core.store.TestVectors;
import org.chartstream.core.store.rowset.FieldPredicate;
import org.chartstream.core.store.rowset.RowSet;
import org.chartstream.core.store.rowset.RowSetOutput;
import org.junit.jupiter.api.Test;

/**
 * The exact commands the DocumentDB store sends for searches and for its vector index, pinned as golden JSON in
 * shell mode ({@code NumberLong(…)} marks int64, plain integers are int32, so the files also pin the BSON types). A
 * golden file changes only on purpose: read the diff against the DocumentDB syntax ({@code $search.cosmosSearch}
 * with {@code vector, path, k, [efSearch|nProbes|exact], filter}, {@code returnStoredSource},
 * {@code $meta: "searchScore"}; {@code $text} with {@code $meta: "textScore"}).
 */
class DocumentDbPipelinesTest {

  private static final float[] QUERY = {0.5f, -0.5f, 0.25f, 0.75f};
  private static final long EPOCH = 7L;
  private static final List<String> ACTIVE = List.of(DocumentDbPipelines.tableGenKey("clinic", "notes", 3),
      DocumentDbPipelines.tableGenKey("clinic", "labs", 1));
  private static final RetrievalFilter PATIENT = RetrievalFilter.forPatient("patient-137");
  private static final DocumentDbSettings SETTINGS = DocumentDbSettings.defaults("mongodb://localhost", "db", 384);
  private static final Document EF_SEARCH_200 = new Document("efSearch", 200);

  private static final JsonWriterSettings SHELL =
      JsonWriterSettings.builder().outputMode(JsonMode.SHELL).indent(true).build();

  private static BsonDocument golden(String name) throws IOException {
    try (InputStream in = DocumentDbPipelinesTest.class.getResourceAsStream(name + ".json")) {
      Objects.requireNonNull(in, "golden file " + name + ".json");
      return BsonDocument.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
  }

  private static BsonDocument bson(Document d) {
    return d.toBsonDocument(BsonDocument.class, MongoClientSettings.getDefaultCodecRegistry());
  }

  private static BsonDocument pipeline(List<Document> stages) {
    return bson(new Document("pipeline", stages));
  }

  /**
   * The actual command as it reads back from its shell JSON, as the golden file does: a {@code $regex} with
   * {@code $options} then compares as the regular expression both parse to.
   */
  private static void assertGolden(String name, BsonDocument sent) throws IOException {
    BsonDocument actual = BsonDocument.parse(sent.toJson(SHELL));
    assertThat(actual)
        .as("%s differs from its golden file; actual:%n%s", name,
            actual.toJson(SHELL))
        .isEqualTo(golden(name));
  }

  private static List<Document> vector(RetrievalFilter filter) {
    return DocumentDbPipelines.vectorSearch(QUERY, 10, EF_SEARCH_200,
        DocumentDbPipelines.searchFilter(EPOCH, ACTIVE, filter));
  }

  @Test
  void plainVectorSearchStillPushesTheActiveGenerationsAndEpochIntoCosmosSearch() throws IOException {
    assertGolden("vector-plain", pipeline(vector(RetrievalFilter.NONE)));
  }

  @Test
  void vectorSearchPushesEachFilterFieldIntoCosmosSearch() throws IOException {
    assertGolden("vector-filter-tables", pipeline(vector(RetrievalFilter.forTables("notes", "labs"))));
    assertGolden("vector-filter-sources", pipeline(vector(RetrievalFilter.forSources("clinic"))));
    assertGolden("vector-filter-row-keys", pipeline(vector(RetrievalFilter.forRowKeys("r1", "clinic:labs:r3"))));
    assertGolden("vector-filter-patient", pipeline(vector(PATIENT)));
    assertGolden("vector-filter-combined", pipeline(vector(RetrievalFilter.forTables("labs")
        .withSources(List.of("clinic")).withRowKeys(List.of("r0")).withPatient("patient-137"))));
  }

  @Test
  void thePushedDownFilterIsInsideCosmosSearchWithNoLaterMatch() {
    BsonDocument p = pipeline(vector(PATIENT));
    BsonDocument cosmosSearch = p.getArray("pipeline").get(0).asDocument().getDocument("$search")
        .getDocument("cosmosSearch");
    assertThat(cosmosSearch.getDocument("filter").getString("patient").getValue()).isEqualTo("patient-137");
    assertThat(cosmosSearch.get("k").getBsonType()).isEqualTo(BsonType.INT32);
    assertThat(cosmosSearch.get("efSearch").getBsonType()).isEqualTo(BsonType.INT32);
    assertThat(cosmosSearch.getDocument("filter").getDocument("epoch_added").get("$lte").getBsonType())
        .isEqualTo(BsonType.INT64);
    assertThat(p.getArray("pipeline")).extracting(s -> s.asDocument().getFirstKey())
        .containsExactly("$search", "$project");
  }

  @Test
  void ivfSearchProbesListsThatGrowWithTheBuiltIndexUnlessConfigured() throws IOException {
    Document filter = DocumentDbPipelines.searchFilter(EPOCH, ACTIVE, RetrievalFilter.forTables("notes", "labs"));
    DocumentDbSettings ivf = SETTINGS.withVectorIndexKind(DocumentDbSettings.VectorIndexKind.IVF);
    int listsAt100k = IvfSizing.lists(100_000);
    assertGolden("vector-ivf-default", pipeline(DocumentDbPipelines.vectorSearch(QUERY, 10,
        DocumentDbSearcher.approximateSearchOptions(ivf, 10, listsAt100k), filter)));
    assertGolden("vector-ivf-filter-table", pipeline(DocumentDbPipelines.vectorSearch(QUERY, 10,
        DocumentDbSearcher.approximateSearchOptions(ivf.withIvfProbes(10), 10, listsAt100k), filter)));
    assertGolden("vector-ivf-engine-default", pipeline(DocumentDbPipelines.vectorSearch(QUERY, 10,
        DocumentDbSearcher.approximateSearchOptions(ivf, 10, null), filter)));
    assertThat(DocumentDbSearcher.approximateSearchOptions(ivf.withIvfProbes(10), 10, 3))
        .as("never more probes than the index has lists").isEqualTo(new Document("nProbes", 3));
  }

  @Test
  void ivfIndexesAreBuiltWithListsThatGrowWithTheCollection() throws IOException {
    DocumentDbSettings ivf = SETTINGS.withVectorIndexKind(DocumentDbSettings.VectorIndexKind.IVF);
    assertGolden("index-vector-ivf", bson(DocumentDbPipelines.vectorIndexCommand("records", ivf,
        IvfSizing.lists(100_000))));
    assertGolden("index-vector-ivf-1m", bson(DocumentDbPipelines.vectorIndexCommand("records", ivf,
        IvfSizing.lists(1_000_000))));
  }

  @Test
  void hnswSearchSendsEfSearch200UnlessTheEnginesOwnIsChosen() throws IOException {
    Document filter = DocumentDbPipelines.searchFilter(EPOCH, ACTIVE, RetrievalFilter.NONE);
    assertThat(DocumentDbSettings.DEFAULT_EF_SEARCH).isGreaterThan(DocumentDbSettings.ENGINE_DEFAULT_EF_SEARCH);
    assertGolden("vector-plain", pipeline(DocumentDbPipelines.vectorSearch(QUERY, 10,
        DocumentDbSearcher.approximateSearchOptions(SETTINGS, 10, null), filter)));
    DocumentDbSettings engineOwn = SETTINGS.withNumCandidates(null);
    assertGolden("vector-engine-default", pipeline(DocumentDbPipelines.vectorSearch(QUERY, 10,
        DocumentDbSearcher.approximateSearchOptions(engineOwn, 10, null), filter)));
    assertThat(DocumentDbSearcher.approximateSearchOptions(engineOwn, 41, null)).as("k above the engine's 40")
        .isEqualTo(new Document("efSearch", 41));
    assertThat(DocumentDbSearcher.approximateSearchOptions(SETTINGS, 500, null))
        .as("never below k").isEqualTo(new Document("efSearch", 500));
    assertThat(DocumentDbSearcher.approximateSearchOptions(SETTINGS, 5_000, null)).as("the engine's limit")
        .isEqualTo(new Document("efSearch", DocumentDbSettings.MAX_CANDIDATES));
  }

  @Test
  void selectiveSearchesScanExactlyWithTheSameFilterAndNoSearchParameter() throws IOException {
    assertGolden("vector-exact-filter-patient", pipeline(DocumentDbPipelines.vectorSearch(QUERY, 10,
        DocumentDbPipelines.exactSearch(), DocumentDbPipelines.searchFilter(EPOCH, ACTIVE, PATIENT))));
    assertGolden("vector-exact-filter-row-keys", pipeline(DocumentDbPipelines.vectorSearch(QUERY, 10,
        DocumentDbPipelines.exactSearch(), DocumentDbPipelines.searchFilter(EPOCH, ACTIVE,
            RetrievalFilter.forRowKeys("r1", "clinic:labs:r3")))));
    assertThat(DocumentDbSearcher.isSelectiveByKind(PATIENT)).isTrue();
    assertThat(DocumentDbSearcher.isSelectiveByKind(RetrievalFilter.forRowKeys("r1"))).isTrue();
    assertThat(DocumentDbSearcher.isSelectiveByKind(RetrievalFilter.forTables("notes"))).isFalse();
    assertThat(DocumentDbSearcher.isSelectiveByKind(RetrievalFilter.NONE)).isFalse();
    assertThat(DocumentDbSearcher.isSelectiveByKind(null)).isFalse();
  }

  @Test
  void anApproximateShortfallIsFilledByTheExactSearch() {
    List<SearchHit> four = hits(4);
    List<SearchHit> ten = hits(10);
    assertThat(DocumentDbSearcher.fillShortfall(four, 10, () -> ten)).isSameAs(ten);
    assertThat(DocumentDbSearcher.fillShortfall(ten, 10, () -> {
      throw new AssertionError("a full result needs no exact search");
    })).isSameAs(ten);
  }

  private static List<SearchHit> hits(int n) {
    RowRef row = new RowRef("clinic", "notes", "r");
    return java.util.stream.IntStream.range(0, n).mapToObj(i -> new SearchHit(
        ChunkFixture.of(row).index(i, n).text("t").vector(TestVectors.centroid(0)).build(), 1.0, i + 1)).toList();
  }

  @Test
  void postFilteredFallbackOverFetchesThenMatchesAndLimits() throws IOException {
    BsonDocument p = pipeline(DocumentDbPipelines.vectorSearchPostFiltered(QUERY, 10, 100, EF_SEARCH_200,
        DocumentDbPipelines.searchFilter(EPOCH, ACTIVE, PATIENT)));
    assertGolden("vector-post-filtered", p);
    assertThat(p.getArray("pipeline")).extracting(s -> s.asDocument().getFirstKey())
        .containsExactly("$search", "$match", "$limit", "$project");
  }

  @Test
  void lexicalSearchPutsTextAndFilterInOneMatch() throws IOException {
    assertGolden("lexical-filter-patient", pipeline(DocumentDbPipelines.lexicalSearch(
        TextSearchQuery.of("migraine -aura \"left side\""), 10,
        DocumentDbPipelines.searchFilter(EPOCH, ACTIVE, PATIENT))));
    assertGolden("lexical-plain", pipeline(DocumentDbPipelines.lexicalSearch("migraine", 10,
        DocumentDbPipelines.searchFilter(EPOCH, ACTIVE, RetrievalFilter.NONE))));
    assertGolden("lexical-hyphens-operators", pipeline(DocumentDbPipelines.lexicalSearch(
        TextSearchQuery.of("follow-up or x-ray -fever \"E11.9\""), 10,
        DocumentDbPipelines.searchFilter(EPOCH, ACTIVE, PATIENT))));
  }

  @Test
  void everySearchReturnsTheHitsVectorWithItsStoredFields() {
    Document filter = DocumentDbPipelines.searchFilter(EPOCH, ACTIVE, PATIENT);
    List<List<Document>> searches = List.of(
        DocumentDbPipelines.vectorSearch(QUERY, 10, EF_SEARCH_200, filter),
        DocumentDbPipelines.vectorSearch(QUERY, 10, DocumentDbPipelines.exactSearch(), filter),
        DocumentDbPipelines.vectorSearchPostFiltered(QUERY, 10, 100, EF_SEARCH_200, filter),
        DocumentDbPipelines.lexicalSearch("migraine", 10, filter));
    for (List<Document> search : searches) {
      Document projection = search.get(search.size() - 1).get("$project", Document.class);
      assertThat(projection).containsEntry(DocumentDbPipelines.VECTOR, 1).containsEntry(DocumentDbPipelines.ID, 0);
    }
  }

  @Test
  void vectorIndexCommandsUseInt32Options() throws IOException {
    DocumentDbSettings settings = SETTINGS;
    assertGolden("index-vector-hnsw", bson(DocumentDbPipelines.vectorIndexCommand("records", settings, 0)));
    assertGolden("index-vector-ivf-fixed-lists", bson(DocumentDbPipelines.vectorIndexCommand("records",
        settings.withVectorIndexKind(DocumentDbSettings.VectorIndexKind.IVF).withIvfNumLists(50), 50)));
  }

  @Test
  void filterValuesComeInAStableOrder() {
    Document a = DocumentDbPipelines.searchFilter(1, List.of("b", "a"), RetrievalFilter.forTables("z", "y", "x"));
    Document b = DocumentDbPipelines.searchFilter(1, List.of("a", "b"), RetrievalFilter.forTables("x", "z", "y"));
    assertThat(bson(a)).isEqualTo(bson(b));
  }

  @Test
  void aHyphenatedNumberKeepsItsSignAndAOneLetterPartIsDropped() throws IOException {
    assertGolden("lexical-hyphen-number", pipeline(DocumentDbPipelines.lexicalSearch(
        TextSearchQuery.of("COVID-19 x-ray"), 10, DocumentDbPipelines.searchFilter(EPOCH, ACTIVE, PATIENT))));
  }

  @Test
  void textIndexIsWeightedOverTheTextAndTheOpening() throws IOException {
    assertGolden("index-text", bson(DocumentDbPipelines.textIndexCommand("records")));
    assertGolden("index-text-drop", bson(DocumentDbPipelines.dropTextIndexCommand("records")));
  }

  @Test
  void aTextIndexWithOtherWeightsIsNotTheCurrentOne() {
    Document old = Document.parse("{name: 'text_search', key: {_fts: 'text', _ftsx: 1}, weights: {text: 1}}");
    Document current = Document.parse("{name: 'text_search', key: {_fts: 'text', _ftsx: 1},"
        + " weights: {text: 1, opening: 2}}");
    Document currentAsDoubles = Document.parse("{name: 'text_search', weights: {opening: 2.0, text: 1.0}}");
    Document otherWeight = Document.parse("{name: 'text_search', weights: {text: 1, opening: 10}}");
    assertThat(DocumentDbPipelines.isCurrentTextIndex(old)).isFalse();
    assertThat(DocumentDbPipelines.isCurrentTextIndex(new Document("name", "text_search"))).isFalse();
    assertThat(DocumentDbPipelines.isCurrentTextIndex(otherWeight)).isFalse();
    assertThat(DocumentDbPipelines.isCurrentTextIndex(current)).isTrue();
    assertThat(DocumentDbPipelines.isCurrentTextIndex(currentAsDoubles)).isTrue();
  }

  @Test
  void theOpeningIsTheChunksFirstWords() {
    assertThat(DocumentDbPipelines.opening("Clinical note\nPatient: p-1\n\nHeadache since Monday"))
        .isEqualTo("Clinical note Patient: p-1 Headache since Monday");
    String long20 = String.join(" ", IntStream.range(0, 20).mapToObj(i -> "w" + i).toList());
    assertThat(DocumentDbPipelines.opening(long20).split(" ")).hasSize(DocumentDbPipelines.OPENING_WORDS)
        .startsWith("w0").endsWith("w15");
    assertThat(DocumentDbPipelines.opening("  ")).isEmpty();
  }

  @Test
  void lexicalScoresComeFromTheRankAndFallEvenly() {
    double first = DocumentDbPipelines.lexicalRankScore(1);
    double second = DocumentDbPipelines.lexicalRankScore(2);
    double tenth = DocumentDbPipelines.lexicalRankScore(10);
    assertThat(first).isGreaterThan(second).isGreaterThan(0);
    assertThat(second).isGreaterThan(tenth);
    // min-max over a top 10: the second hit keeps most of the first's weight, the steps are nearly equal
    double secondNormalised = (second - tenth) / (first - tenth);
    assertThat(secondNormalised).isBetween(0.85, 0.9);
  }

  @Test
  void serverRefusalsAreClassified() {
    ServerAddress server = new ServerAddress("localhost", 10260);
    MongoCommandException noSearchStage = new MongoCommandException(BsonDocument.parse(
        "{ok: 0, code: 40324, errmsg: \"Unrecognized pipeline stage name: '$search'\"}"), server);
    MongoCommandException noText = new MongoCommandException(BsonDocument.parse(
        "{ok: 0, code: 2, errmsg: 'unknown operator: $search'}"), server);
    MongoCommandException noFilter = new MongoCommandException(BsonDocument.parse(
        "{ok: 0, code: 115, errmsg: '$filter is not supported for vector search yet.'}"), server);
    MongoCommandException other = new MongoCommandException(BsonDocument.parse(
        "{ok: 0, code: 13, errmsg: 'not authorized'}"), server);
    assertThat(DocumentDbSearcher.isUnsupportedSearch(noSearchStage)).isTrue();
    assertThat(DocumentDbSearcher.isUnsupportedSearch(noText)).isTrue();
    assertThat(DocumentDbSearcher.isUnsupportedSearch(other)).isFalse();
    assertThat(DocumentDbSearcher.isFilterRefusal(noFilter)).isTrue();
    assertThat(DocumentDbSearcher.isFilterRefusal(noSearchStage)).isFalse();
    assertThat(DocumentDbSearcher.isFilterRefusal(other)).isFalse();
  }

  @Test
  void theStoredIndexKindIsReadFromListIndexesWhenTheStoreHasNoMarker() throws IOException {
    List<Document> reply = golden("listindexes-reply-hnsw").getArray("indexes").stream()
        .map(v -> Document.parse(v.asDocument().toJson())).toList();
    Document options = DocumentDbPipelines.vectorIndexOptions(reply);
    assertThat(options.getString("kind")).isEqualTo("vector-hnsw");
    assertThat(options.get("dimensions", Number.class).intValue()).isEqualTo(384);
    assertThat(DocumentDbPipelines.vectorIndexOptions(reply.subList(0, 1))).as("no vector index").isNull();
  }

  @Test
  void theExactTermLookupReadsKeysFirstAndThenTheCitedChunksWithoutVectors() throws IOException {
    Document match = DocumentDbTermLookup.termMatch(EPOCH, ACTIVE, PATIENT, DocumentDbTermLookup.engineRegex("x-ray"));
    assertGolden("term-lookup-matching-keys", bson(new Document("find", "records").append("filter", match)
        .append("projection", DocumentDbTermLookup.MATCHING_CHUNK_KEYS)));
    assertGolden("term-lookup-cited-chunks", bson(new Document("find", "records")
        .append("filter", DocumentDbTermLookup.citedChunks(List.of("clinic:notes:r1:0:3@5", "clinic:notes:r2:1:3@6")))
        .append("projection", DocumentDbTermLookup.STORED_CHUNK_WITHOUT_VECTOR)));
    assertThat(DocumentDbTermLookup.MATCHING_CHUNK_KEYS).doesNotContainKeys(DocumentDbPipelines.VECTOR,
        DocumentDbPipelines.TEXT);
    assertThat(DocumentDbTermLookup.STORED_CHUNK_WITHOUT_VECTOR).doesNotContainKey(DocumentDbPipelines.VECTOR);
  }

  @Test
  void aTermTooLongForTheEnginesRegexIsMatchedThereByItsPrefixWithTheTextRead() throws IOException {
    String longest = "a".repeat(DocumentDbTermLookup.MAX_TERM_CHARS);
    assertThat(DocumentDbTermLookup.engineRegex(longest)).isEqualTo(TermPattern.of(longest));
    String tooLong = "Ab".repeat(DocumentDbTermLookup.MAX_TERM_CHARS / 2) + " code";
    assertThat(DocumentDbTermLookup.engineRegex(tooLong))
        .isEqualTo(TermPattern.prefixOf(tooLong, DocumentDbTermLookup.MAX_TERM_CHARS));
    assertGolden("term-lookup-long-term", bson(new Document("find", "records")
        .append("filter", DocumentDbTermLookup.termMatch(EPOCH, ACTIVE, PATIENT, DocumentDbTermLookup.engineRegex(
            "E11.9 " + "x".repeat(DocumentDbTermLookup.MAX_TERM_CHARS))))
        .append("projection", DocumentDbTermLookup.MATCHING_CHUNK_KEYS_AND_TEXT)));
  }

  @Test
  void eachRowSetOutputIsOneGroupOverTheSetsMatch() throws IOException {
    Document set = DocumentDbRowSets.rowsMatch(EPOCH, ACTIVE, RowSet.of(RetrievalFilter.forTables("medications"),
        FieldPredicate.AnyOf.of("drug", "metformin")));
    assertGolden("rowset-count", pipeline(DocumentDbRowSets.rowsPerPatient(set)));
    assertGolden("rowset-except-patients", pipeline(DocumentDbRowSets.patientsOf(set)));
    assertGolden("rowset-values", pipeline(DocumentDbRowSets.valuesPerPatient(set, "dose.unit")));
    assertGolden("rowset-latest-per-patient", pipeline(DocumentDbRowSets.extremeValues(set,
        new RowSetOutput.Extreme("start", RowSetOutput.End.LATEST, true, 5))));
    assertGolden("rowset-earliest", pipeline(DocumentDbRowSets.extremeValues(set,
        new RowSetOutput.Extreme("start", RowSetOutput.End.EARLIEST, false, 5))));
  }

  @Test
  void aRowSetIsOneMatchOverTheRowHeadsWithAConditionPerPredicateOnTheFieldSubDocuments() throws IOException {
    RowSet rows = RowSet.of(RetrievalFilter.forTables("medications").withPatient("patient-137"),
        FieldPredicate.AnyOf.of("drug", "Lisinopril 10 MG", "losartan"), new FieldPredicate.HasWords("drug", "Statin"),
        new FieldPredicate.InRange("start", "2020", true, "2021", false), FieldPredicate.InRange.since("start", "2019"),
        new FieldPredicate.Present("dose.unit"), new FieldPredicate.Absent("stop"));

    assertGolden("rowset-match", bson(DocumentDbRowSets.rowsMatch(EPOCH, ACTIVE, rows)));
  }
}

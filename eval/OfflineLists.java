import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.miscellaneous.LimitTokenCountAnalyzer;
import org.apache.lucene.analysis.miscellaneous.PerFieldAnalyzerWrapper;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.chartstream.store.lucene.FoldingEnglishAnalyzer;
import org.chartstream.retrieval.gate.QuestionAnchors;

/**
 * The Java half of eval/offline_fusion.py (session 10, docs/history/EVALUATION-sessions-1-21.md): what the offline
 * analysis needs from the project's own code. Ids, scores and term statistics out; no text is printed.
 *
 * <pre>
 * java -cp 'app/target/lib/*' eval/OfflineLists.java anchors IN.tsv          key \t question \t text... -> key \t anchored \t mentioned...
 * java -cp 'app/target/lib/*' eval/OfflineLists.java bm25 CORPUS.jsonl PREFIX IN.jsonl OUT.jsonl
 * </pre>
 *
 * {@code anchors}: whether {@link QuestionAnchors} finds a code or a name in the question, and whether each text
 * mentions every one. {@code bm25}: the store's row-level BM25 rebuilt in memory (the store's analyzer chain, the
 * row's whole text plus its first 16 terms as an opening field boosted 2, LuceneStoreSearcher and LuceneSchema), one
 * document per corpus row whose text is PREFIX + the row's text (the projection's header: "record: beir docs\ntext: "
 * for a BEIR folder, "-" for none). Each query line is {"id", "texts": [[weight, text], ...]}, a text starting with
 * "=" being one analysed term; each output line holds the top 100 rows with scores, and per query term its document
 * frequency in the whole text, the corpus size and which of the rows listed under "check" hold it.
 */
public class OfflineLists {
    private static final Analyzer ANALYZER = new FoldingEnglishAnalyzer();

    public static void main(String[] args) throws IOException {
        if (args[0].equals("anchors")) {
            anchors(Path.of(args[1]));
        } else {
            bm25(Path.of(args[1]), args[2], Path.of(args[3]), Path.of(args[4]));
        }
    }

    private static void anchors(Path in) throws IOException {
        for (String line : Files.readAllLines(in)) {
            String[] fields = line.split("\t", -1);
            List<QuestionAnchors.Anchor> anchors = QuestionAnchors.of(fields[1]);
            StringBuilder out = new StringBuilder(fields[0]).append('\t').append(!anchors.isEmpty());
            for (int i = 2; i < fields.length; i++) {
                out.append('\t').append(!anchors.isEmpty() && QuestionAnchors.mentionsAll(anchors, fields[i]));
            }
            System.out.println(out);
        }
    }

    /** The distinct terms the store's analyzer makes of {@code text}, in order (also eval/TermWeights.java's). */
    static List<String> terms(String text) throws IOException {
        Set<String> out = new LinkedHashSet<>();
        try (TokenStream ts = ANALYZER.tokenStream("row_text", text)) {
            CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
            ts.reset();
            while (ts.incrementToken()) {
                if (term.length() > 0) {
                    out.add(term.toString());
                }
            }
            ts.end();
        }
        return new ArrayList<>(out);
    }

    private static Query query(String field, String text) throws IOException {
        if (text.startsWith("=")) {
            return new TermQuery(new Term(field, text.substring(1)));
        }
        BooleanQuery.Builder query = new BooleanQuery.Builder();
        List<String> terms = terms(text);
        for (String t : terms) {
            query.add(new TermQuery(new Term(field, t)), BooleanClause.Occur.SHOULD);
        }
        return terms.isEmpty() ? null : query.build();
    }

    private static void bm25(Path corpus, String prefix, Path in, Path outFile) throws IOException {
        ObjectMapper json = new ObjectMapper();
        ByteBuffersDirectory dir = new ByteBuffersDirectory();
        Map<String, Set<String>> rowTerms = new HashMap<>();
        Analyzer index = new PerFieldAnalyzerWrapper(ANALYZER, Map.of("row_opening", new LimitTokenCountAnalyzer(ANALYZER, 16)));
        try (IndexWriter writer = new IndexWriter(dir, new IndexWriterConfig(index))) {
            for (String line : Files.readAllLines(corpus)) {
                JsonNode row = json.readTree(line);
                String id = row.get("_id").asText();
                String text = (prefix.equals("-") ? "" : prefix.replace("\\n", "\n")) + row.get("text").asText();
                rowTerms.put(id, new HashSet<>(terms(text)));
                Document d = new Document();
                d.add(new StringField("id", id, Field.Store.YES));
                d.add(new TextField("row_text", text, Field.Store.NO));
                d.add(new TextField("row_opening", text, Field.Store.NO));
                writer.addDocument(d);
            }
        }
        IndexSearcher searcher = new IndexSearcher(DirectoryReader.open(dir));
        IndexReader reader = searcher.getIndexReader();
        try (PrintWriter out = new PrintWriter(outFile.toFile())) {
            for (String line : Files.readAllLines(in)) {
                JsonNode q = json.readTree(line);
                BooleanQuery.Builder rowText = new BooleanQuery.Builder();
                BooleanQuery.Builder opening = new BooleanQuery.Builder();
                List<Map<String, Object>> termStats = new ArrayList<>();
                boolean any = false;
                for (JsonNode weighted : q.get("texts")) {
                    String text = weighted.get(1).asText();
                    float weight = (float) weighted.get(0).asDouble();
                    Query overText = query("row_text", text);
                    if (overText == null) {
                        continue;
                    }
                    any = true;
                    rowText.add(new BoostQuery(overText, weight), BooleanClause.Occur.SHOULD);
                    opening.add(new BoostQuery(query("row_opening", text), weight), BooleanClause.Occur.SHOULD);
                    for (String t : text.startsWith("=") ? List.of(text.substring(1)) : terms(text)) {
                        List<String> holding = new ArrayList<>();
                        for (JsonNode c : q.path("check")) {
                            if (rowTerms.getOrDefault(c.asText(), Set.of()).contains(t)) {
                                holding.add(c.asText());
                            }
                        }
                        termStats.add(Map.of("t", t, "df", reader.docFreq(new Term("row_text", t)), "rows", holding));
                    }
                }
                List<Map<String, Object>> hits = new ArrayList<>();
                if (any) {
                    Query full = new BooleanQuery.Builder()
                            .add(rowText.build(), BooleanClause.Occur.SHOULD)
                            .add(new BoostQuery(opening.build(), 2f), BooleanClause.Occur.SHOULD)
                            .build();
                    for (ScoreDoc sd : searcher.search(full, 100).scoreDocs) {
                        hits.add(Map.of("doc", searcher.storedFields().document(sd.doc).get("id"), "score", sd.score));
                    }
                }
                out.println(json.writeValueAsString(Map.of("id", q.get("id").asText(), "N", reader.numDocs(),
                        "hits", hits, "terms", termStats)));
            }
        }
    }
}

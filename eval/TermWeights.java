import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.chartstream.models.ModelDescriptor;
import org.chartstream.models.OnnxEmbedder;
import org.chartstream.models.Vectors;

/**
 * Session 21 (docs/history/EVALUATION-sessions-1-21.md, "Session 21"): how much each word of a question carries of its
 * meaning, by the project's embedding model, for eval/lexical-term-weights.py. For each whitespace-separated word that
 * the store's analyzer keeps as a search term, the question is embedded once without that word; the word's importance
 * is 1 − cosine(the question, the question without it). A second signal, the cosine of the word embedded alone with the
 * question, is written beside it. Texts are embedded one per batch, because an int8 model's vector depends on its
 * batch. Ids, analysed terms and scores out.
 *
 * <pre>
 * java -cp app/target/chartstream-app.jar eval/TermWeights.java MODEL QUERIES.jsonl OUT.jsonl
 * </pre>
 *
 * (The words' terms come from eval/OfflineLists.java, which the source launcher compiles alongside.)
 *
 * Each output line: {"query": id, "terms": [[analysed term, leave-one-out importance, word-alone cosine], ...]}; a term
 * several words give appears once, with the larger of each signal.
 */
public class TermWeights {
    private static final ObjectMapper JSON = new ObjectMapper();

    public static void main(String[] a) throws Exception {
        List<JsonNode> questions = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of(a[1]))) {
            if (!line.isBlank()) {
                questions.add(JSON.readTree(line));
            }
        }
        try (OnnxEmbedder e = OnnxEmbedder.load(ModelDescriptor.byId(a[0]), 2, 1); PrintWriter out = new PrintWriter(a[2])) {
            int done = 0;
            for (JsonNode q : questions) {
                String text = q.get("text").asText();
                String[] words = text.strip().split("\\s+");
                float[] whole = e.embedQueries(List.of(text))[0];
                Map<String, double[]> byTerm = new LinkedHashMap<>();
                for (int i = 0; i < words.length; i++) {
                    List<String> terms = OfflineLists.terms(words[i]);
                    if (terms.isEmpty()) {
                        continue;
                    }
                    StringBuilder without = new StringBuilder();
                    for (int j = 0; j < words.length; j++) {
                        if (j != i) {
                            without.append(without.isEmpty() ? "" : " ").append(words[j]);
                        }
                    }
                    double importance = 1 - Vectors.dot(whole, e.embedQueries(List.of(without.toString()))[0]);
                    double alone = Vectors.dot(whole, e.embedQueries(List.of(words[i]))[0]);
                    for (String t : terms) {
                        byTerm.merge(t, new double[] {importance, alone}, (x, y) -> new double[] {Math.max(x[0], y[0]), Math.max(x[1], y[1])});
                    }
                }
                List<List<Object>> rows = new ArrayList<>();
                byTerm.forEach((t, s) -> rows.add(List.of(t, s[0], s[1])));
                out.println(JSON.writeValueAsString(Map.of("query", q.get("_id").asText(), "terms", rows)));
                if (++done % 50 == 0) {
                    System.err.println(done + " of " + questions.size() + " questions");
                }
            }
        }
    }
}

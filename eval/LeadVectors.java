import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.chartstream.models.ModelDescriptor;
import org.chartstream.models.OnnxEmbedder;
import org.chartstream.models.Vectors;

/**
 * Session 19 (docs/history/EVALUATION-sessions-1-21.md, "Session 19: an opening vector per long row"): the cosine of
 * every question with every corpus row's opening, embedded alone by the project's model, for
 * eval/row-opening-vectors.py. Ids and scores out, no text.
 *
 * <pre>
 * java -cp app/target/chartstream-app.jar eval/LeadVectors.java MODEL CORPUS.jsonl QUERIES.jsonl PREFIX OUT.jsonl N words|sentence
 * </pre>
 *
 * {@code words}: the row's first N words, cut after the last sentence end among them if there is one (none for a row of
 * at most N words); {@code sentence}: the row's first sentence or line of at least 4 words, none when it is longer than
 * N words. PREFIX ("-" for none) goes before the opening, as the projection's header goes before a chunk. The class
 * path must be the app jar alone (its manifest names lib/*): ONNX Runtime crashes on a long java.class.path.
 */
public class LeadVectors {
    private static final ObjectMapper JSON = new ObjectMapper();

    public static void main(String[] a) throws Exception {
        String prefix = a[3].equals("-") ? "" : a[3].replace("\\n", "\n");
        int maxWords = Integer.parseInt(a[5]);
        List<JsonNode> rows = readJsonLines(Path.of(a[1]));
        List<JsonNode> questions = readJsonLines(Path.of(a[2]));
        List<String> openings = new ArrayList<>();
        for (JsonNode row : rows) {
            String title = row.path("title").asText("");
            String text = (title.isBlank() ? "" : "title: " + title + "\n") + row.get("text").asText();
            String opening = a[6].equals("words") ? leadWords(text, maxWords) : lead(text, maxWords);
            openings.add(opening.isEmpty() ? "" : prefix + opening);
        }
        try (OnnxEmbedder e = OnnxEmbedder.load(ModelDescriptor.byId(a[0]), 2, 16); PrintWriter out = new PrintWriter(a[4])) {
            float[][] rowVectors = e.embedPassages(openings);
            float[][] questionVectors = e.embedQueries(questions.stream().map(q -> q.get("text").asText()).toList());
            for (int i = 0; i < questions.size(); i++) {
                ObjectNode scores = JSON.createObjectNode();
                for (int j = 0; j < rows.size(); j++) {
                    // a row without an opening scores below every cosine of normalised vectors
                    scores.put(rows.get(j).get("_id").asText(), openings.get(j).isEmpty() ? -1 : Vectors.dot(questionVectors[i], rowVectors[j]));
                }
                ObjectNode line = JSON.createObjectNode().put("query", questions.get(i).get("_id").asText());
                line.set("lead", scores);
                out.println(JSON.writeValueAsString(line));
            }
        }
    }

    private static List<JsonNode> readJsonLines(Path file) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            if (!line.isBlank()) {
                out.add(JSON.readTree(line));
            }
        }
        return out;
    }

    /** The first sentence or line of at least 4 words; none when it is longer than {@code maxWords}. */
    static String lead(String text, int maxWords) {
        for (String piece : text.strip().split("(?<=[.?!])\\s+|\\n+")) {
            int words = piece.strip().split("\\s+").length;
            if (words >= 4) {
                return words > maxWords ? "" : piece.strip();
            }
        }
        return "";
    }

    /** The first {@code maxWords} words, cut after the last sentence end among them; none for a shorter text. */
    static String leadWords(String text, int maxWords) {
        String[] w = text.strip().split("\\s+");
        if (w.length <= maxWords) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        int cut = -1;
        for (int i = 0; i < maxWords; i++) {
            sb.append(i > 0 ? " " : "").append(w[i]);
            if (w[i].endsWith(".") || w[i].endsWith("?") || w[i].endsWith("!")) {
                cut = sb.length();
            }
        }
        return cut > 0 ? sb.substring(0, cut) : sb.toString();
    }
}

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.chartstream.models.ModelDescriptor;
import org.chartstream.models.OnnxEmbedder;

/**
 * Session 19 (docs/EVALUATION.md, "Session 19: an opening vector per long row"): the cosine of every question with
 * every corpus row's opening, embedded alone by the project's model, for eval/lead-vector-s19.py. Ids and scores out,
 * no text.
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
    public static void main(String[] a) throws Exception {
        ObjectMapper om = new ObjectMapper();
        String prefix = a[3].equals("-") ? "" : a[3].replace("\\n", "\n");
        List<String> ids = new ArrayList<>(), leads = new ArrayList<>();
        for (String l : Files.readAllLines(Path.of(a[1]))) {
            if (l.isBlank()) continue;
            JsonNode n = om.readTree(l);
            ids.add(n.get("_id").asText());
            String title = n.path("title").asText("");
            String text = (title.isBlank() ? "" : "title: " + title + "\n") + n.get("text").asText();
            String ld = a[6].equals("words") ? leadWords(text, Integer.parseInt(a[5])) : lead(text, Integer.parseInt(a[5]));
            leads.add(ld.isEmpty() ? "" : prefix + ld);
        }
        List<String> qids = new ArrayList<>(), qs = new ArrayList<>();
        for (String l : Files.readAllLines(Path.of(a[2]))) {
            if (l.isBlank()) continue;
            JsonNode n = om.readTree(l);
            qids.add(n.get("_id").asText()); qs.add(n.get("text").asText());
        }
        try (OnnxEmbedder e = OnnxEmbedder.load(ModelDescriptor.byId(a[0]), 2, 16); PrintWriter out = new PrintWriter(a[4])) {
            float[][] dv = e.embedPassages(leads);
            float[][] qv = e.embedQueries(qs);
            for (int i = 0; i < qs.size(); i++) {
                StringBuilder sb = new StringBuilder("{\"query\":\"" + qids.get(i) + "\",\"lead\":{");
                for (int j = 0; j < ids.size(); j++) {
                    double c = leads.get(j).isEmpty() ? -1 : 0; if (c == 0) for (int k = 0; k < qv[i].length; k++) c += qv[i][k] * dv[j][k];
                    sb.append(j > 0 ? "," : "").append(om.writeValueAsString(ids.get(j))).append(':').append(String.format(java.util.Locale.ROOT, "%.5f", c));
                }
                out.println(sb.append("}}"));
            }
        }
    }

    static String lead(String text, int maxWords) {
        for (String piece : text.strip().split("(?<=[.?!])\\s+|\\n+")) {
            String[] w = piece.strip().split("\\s+");
            if (w.length < 4) continue;
            if (w.length > maxWords) return "";
            return piece.strip();
        }
        return "";
    }

    static String leadWords(String text, int maxWords) {
        String[] w = text.strip().split("\\s+");
        if (w.length <= maxWords) return "";
        StringBuilder sb = new StringBuilder(); int cut = -1;
        for (int i = 0; i < maxWords; i++) { if (i > 0) sb.append(' '); sb.append(w[i]);
            if (w[i].endsWith(".") || w[i].endsWith("?") || w[i].endsWith("!")) cut = sb.length(); }
        return cut > 0 ? sb.substring(0, cut) : sb.toString();
    }
}

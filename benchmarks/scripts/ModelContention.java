import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.chartstream.models.ModelDescriptor;
import org.chartstream.models.OnnxEmbedder;

/**
 * Session 20 (docs/history/PERFORMANCE-sessions-1-21.md, "Session 20"): the embedding model alone, one ONNX thread, one
 * text per call, over the first 200 passages of a BEIR corpus, timed per round. Run once, then as two processes at
 * once, to see whether two models on two cores slow each other (bench scaleout's ingest ratio assumes they do not).
 * Prints counts and rates only.
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED -cp app/target/chartstream-app.jar benchmarks/scripts/ModelContention.java MODEL CORPUS.jsonl ROUNDS
 * </pre>
 *
 * The class path must be the app jar alone (its manifest names lib/*): ONNX Runtime crashes on a long java.class.path.
 */
public class ModelContention {
    public static void main(String[] a) throws Exception {
        ObjectMapper json = new ObjectMapper();
        List<String> texts = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of(a[1]))) {
            if (texts.size() == 200) {
                break;
            }
            texts.add(json.readTree(line).get("text").asText());
        }
        try (OnnxEmbedder model = OnnxEmbedder.load(ModelDescriptor.byId(a[0]), 1, 1)) {
            model.embedPassages(texts.subList(0, 32)); // warm-up
            for (int round = 0; round < Integer.parseInt(a[2]); round++) {
                long t = System.nanoTime();
                model.embedPassages(texts);
                System.out.printf("round %d: %d texts, %.1f texts/s%n", round, texts.size(), texts.size() / ((System.nanoTime() - t) / 1e9));
            }
        }
    }
}

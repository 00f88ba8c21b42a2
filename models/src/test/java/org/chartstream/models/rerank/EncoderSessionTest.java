package org.chartstream.models.rerank;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.chartstream.models.rerank.TestCrossEncoderGraphs.expectedLogit;

import java.util.concurrent.atomic.AtomicInteger;
import org.chartstream.models.EncoderSession;
import org.chartstream.models.OnnxRuntimeGuard;
import org.chartstream.models.OnnxSessions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The shared encoder session against the stand-in graphs of {@link TestCrossEncoderGraphs}. */
class EncoderSessionTest {

    @BeforeAll
    static void allowOnnxRuntime() {
        OnnxRuntimeGuard.shortenInformationalClassPathProperties();
    }

    @Test
    void ordersInputsLongestFirstWithTiesInInputOrder() {
        PairTokenizer.PairEncoding[] inputs = {pair(1, 2), pair(1, 2, 3, 4, 5), pair(5, 4, 3, 2, 1), pair(7)};

        assertThat(EncoderSession.longestFirst(inputs)).containsExactly(1, 2, 0, 3);
    }

    @Test
    void padsEachRowToTheLongestWithMaskedPadIdsAndTypeZero() {
        PairTokenizer.PairEncoding longer = new PairTokenizer.PairEncoding(new long[] {101, 7592, 102, 2088, 102},
                new long[] {0, 0, 0, 1, 1});
        PairTokenizer.PairEncoding shorter = new PairTokenizer.PairEncoding(new long[] {101, 102, 2088, 102},
                new long[] {0, 0, 1, 1});
        PairTokenizer.PairEncoding[] inputs = {longer, shorter};
        float[] logits = new float[2];

        try (EncoderSession session = open(TestCrossEncoderGraphs.singleLogit(), () -> { })) {
            assertThat(session.outputName()).isEqualTo("logits");
            session.whileOpen(() -> {
                // rows in the order given, the shorter one first: it is padded with id 999
                session.run(inputs, new int[] {1, 0}, 999, (shape, values) -> {
                    assertThat(shape).containsExactly(2, 1);
                    logits[0] = values.get(0);
                    logits[1] = values.get(1);
                });
                return null;
            });
        }

        assertThat((double) logits[0]).isCloseTo(expectedLogit(shorter), within(1e-5));
        assertThat((double) logits[1]).isCloseTo(expectedLogit(longer), within(1e-5));
    }

    @Test
    void readsTheFirstOutputWhenThePreferredOneIsAbsent() {
        try (EncoderSession session = EncoderSession.open(
                env -> OnnxSessions.create(env, 1, null, TestCrossEncoderGraphs::singleLogit),
                "last_hidden_state", "test graph", "test graph", () -> { })) {
            assertThat(session.outputName()).isEqualTo("logits");
        }
    }

    @Test
    void closesWhatWasOpenedWithItOnceAndThenRefusesWork() {
        AtomicInteger closings = new AtomicInteger();
        EncoderSession session = open(TestCrossEncoderGraphs.singleLogit(), closings::incrementAndGet);

        session.close();
        session.close();

        assertThat(closings).hasValue(1);
        assertThatThrownBy(() -> session.whileOpen(() -> 1)).isInstanceOf(IllegalStateException.class)
                .hasMessage("test graph is closed");
    }

    @Test
    void refusesAGraphWithoutEncoderInputsAndClosesWhatWasOpenedWithIt() {
        AtomicInteger closings = new AtomicInteger();

        assertThatThrownBy(() -> open(TestCrossEncoderGraphs.notACrossEncoder(), closings::incrementAndGet))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("input_ids").hasMessageContaining("[x]");
        assertThat(closings).hasValue(1);
    }

    private static EncoderSession open(byte[] graph, Runnable closeAlso) {
        return EncoderSession.open(env -> OnnxSessions.create(env, 1, null, () -> graph), "logits", "test graph",
                "test graph", closeAlso);
    }

    private static PairTokenizer.PairEncoding pair(long... ids) {
        return new PairTokenizer.PairEncoding(ids, new long[ids.length]);
    }
}

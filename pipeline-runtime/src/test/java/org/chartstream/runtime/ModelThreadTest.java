package org.chartstream.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.chartstream.ingest.embed.PassageEmbedder;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.runtime.config.ConfigException;
import org.junit.jupiter.api.Test;

class ModelThreadTest {
    /** A model that records the thread and the nice value each call ran with. */
    private static final class RecordingModel {
        final List<String> threads = Collections.synchronizedList(new ArrayList<>());
        final List<OptionalInt> nices = Collections.synchronizedList(new ArrayList<>());
        final PassageEmbedder embedder = PassageEmbedder.of("recording", 2, this::embed);

        private float[][] embed(List<String> texts) {
            if (texts.contains("fail")) {
                throw new IllegalArgumentException("cannot embed 'fail'");
            }
            threads.add(Thread.currentThread().getName());
            nices.add(ThreadNice.ofCurrentThread());
            float[][] out = new float[texts.size()][];
            for (int i = 0; i < texts.size(); i++) {
                out[i] = new float[] {texts.get(i).length(), i};
            }
            return out;
        }
    }

    @Test
    void everyCallRunsOnTheModelThreadAtTheGivenNiceValueAndReturnsTheModelsVectors() {
        OptionalInt callers = ThreadNice.ofCurrentThread();
        assertThat(callers).as("Linux reports a thread's nice value (/proc/thread-self/stat)").isPresent();
        // above the caller's own (a test run under nice 19 leaves no room: raising a nice value is all one may do)
        int nice = Math.min(19, Math.max(10, callers.getAsInt() + 1));
        RecordingModel model = new RecordingModel();
        try (StartedParts started = new StartedParts(m -> { })) {
            PassageEmbedder lowered = ModelThread.lowered(model.embedder, nice, started);
            assertThat(lowered.embedPassages(List.of("abc", "de"))).isDeepEqualTo(new float[][] {{3, 0}, {2, 1}});
            assertThat(lowered.embedPassages(List.of("x"))).isDeepEqualTo(new float[][] {{1, 0}});
            assertThat(lowered.modelId()).isEqualTo("recording");
            assertThat(lowered.dimension()).isEqualTo(2);
        }
        assertThat(model.threads).containsOnly(ModelThread.NAME).hasSize(2);
        assertThat(model.nices).containsOnly(OptionalInt.of(nice));
        assertThat(ThreadNice.ofCurrentThread()).as("the caller's own priority is untouched").isEqualTo(callers);
    }

    @Test
    void aFailingCallThrowsTheModelsExceptionToTheCallerAndTheThreadGoesOnServing() {
        RecordingModel model = new RecordingModel();
        try (StartedParts started = new StartedParts(m -> { })) {
            PassageEmbedder lowered = ModelThread.lowered(model.embedder, 5, started);
            assertThatThrownBy(() -> lowered.embedPassages(List.of("fail")))
                    .isInstanceOf(IllegalArgumentException.class).hasMessage("cannot embed 'fail'");
            assertThat(lowered.embedPassages(List.of("ok"))).isDeepEqualTo(new float[][] {{2, 0}});
        }
    }

    @Test
    void niceZeroLeavesTheModelOnTheCallersThread() {
        RecordingModel model = new RecordingModel();
        try (StartedParts started = new StartedParts(m -> { })) {
            assertThat(ModelThread.lowered(model.embedder, 0, started)).isSameAs(model.embedder);
        }
    }

    @Test
    void theDefaultIsTenAndValuesOutsideZeroToNineteenAreRefusedNamingTheKey() {
        assertThat(ChartstreamConfig.defaults().integer("ingest.model-nice")).isEqualTo(10);
        assertThatThrownBy(() -> ChartstreamConfig.defaults().with("ingest.model-nice", "20"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("ingest.model-nice").hasMessageContaining("between 0 and 19");
        assertThatThrownBy(() -> ChartstreamConfig.defaults().with("ingest.model-nice", "-1"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("ingest.model-nice");
    }

    @Test
    void closingCancelsACallStillQueuedSoItsCallerDoesNotWaitForEver() throws Exception {
        ModelThread thread = new ModelThread(5);
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread first = new Thread(() -> thread.call(() -> {
            running.countDown();
            return release.await(10, TimeUnit.SECONDS);
        }));
        first.start();
        assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
        AtomicReference<Throwable> queuedOutcome = new AtomicReference<>();
        Thread second = new Thread(() -> {
            try {
                thread.call(() -> "never runs");
            } catch (Throwable t) {
                queuedOutcome.set(t);
            }
        });
        second.start();
        while (second.getState() != Thread.State.WAITING) {
            Thread.sleep(5);
        }
        thread.close();
        second.join(10_000);
        release.countDown();
        first.join(10_000);
        assertThat(second.isAlive()).isFalse();
        assertThat(queuedOutcome.get()).isInstanceOf(CancellationException.class);
    }
}

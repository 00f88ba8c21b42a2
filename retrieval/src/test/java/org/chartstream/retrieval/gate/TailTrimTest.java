package org.chartstream.retrieval.gate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TailTrimTest {
    record Scored(String id, double score) {
    }

    @Test
    void dropsPassagesBelowHalfTheGateThreshold() {
        List<Scored> passages = List.of(new Scored("a", 0.9), new Scored("b", 0.15), new Scored("c", 0.149), new Scored("d", 0.2));

        assertThat(TailTrim.trim(passages, Scored::score, 0.30)).extracting(Scored::id).containsExactly("a", "b", "d");
    }

    @Test
    void keepsTheBestPassageWhenAllAreBelow() {
        List<Scored> passages = List.of(new Scored("a", 0.05), new Scored("b", 0.12), new Scored("c", 0.01));

        assertThat(TailTrim.trim(passages, Scored::score, 0.30)).extracting(Scored::id).containsExactly("b");
    }

    @Test
    void nothingInNothingOutAndNoTrimWithoutAPositiveThreshold() {
        assertThat(TailTrim.trim(List.<Scored>of(), Scored::score, 0.30)).isEmpty();
        List<Scored> negative = List.of(new Scored("a", -0.5), new Scored("b", -0.9));
        assertThat(TailTrim.trim(negative, Scored::score, 0.0)).hasSize(2);
    }
}

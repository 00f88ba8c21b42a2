package org.chartstream.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class WeightedTextTest {

  @Test
  void aWeightMustBePositiveAndFinite() {
    for (double bad : new double[] {0, -1, Double.NaN, Double.POSITIVE_INFINITY}) {
      assertThatThrownBy(() -> new WeightedText("asthma", bad)).as("%s", bad)
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("positive and finite");
    }
    assertThat(new WeightedText("asthma", 0.25).weight()).isEqualTo(0.25);
  }

  @Test
  void aTextIsRequired() {
    assertThatThrownBy(() -> new WeightedText(null, 1)).isInstanceOf(NullPointerException.class);
  }
}

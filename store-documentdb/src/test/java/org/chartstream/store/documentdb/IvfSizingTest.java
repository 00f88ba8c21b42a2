package org.chartstream.store.documentdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class IvfSizingTest {

  @Test
  void listsAreOnePerThousandDocumentsThenTheSquareRootBounded() {
    assertThat(IvfSizing.lists(0)).isEqualTo(1);
    assertThat(IvfSizing.lists(999)).isEqualTo(1);
    assertThat(IvfSizing.lists(1_001)).isEqualTo(2);
    assertThat(IvfSizing.lists(10_000)).isEqualTo(10);
    assertThat(IvfSizing.lists(100_000)).isEqualTo(100);
    assertThat(IvfSizing.lists(1_000_000)).isEqualTo(1_000);
    assertThat(IvfSizing.lists(4_000_000)).isEqualTo(2_000);
    assertThat(IvfSizing.lists(1_000_000_000L)).isEqualTo(IvfSizing.MAX_LISTS);
  }

  @Test
  void probesAreTwiceTheRootOfTheListsNeverFewerThanTheEnginesTenNorMoreThanTheLists() {
    assertThat(IvfSizing.probes(1)).isEqualTo(1);
    assertThat(IvfSizing.probes(10)).as("10,000 documents: every list").isEqualTo(10);
    assertThat(IvfSizing.probes(25)).isEqualTo(10);
    assertThat(IvfSizing.probes(100)).as("100,000 documents: twice the engine's 10").isEqualTo(20);
    assertThat(IvfSizing.probes(1_000)).isEqualTo(64);
    assertThat(IvfSizing.probes(IvfSizing.MAX_LISTS)).isEqualTo(127);
    assertThatThrownBy(() -> IvfSizing.probes(0)).isInstanceOf(IllegalArgumentException.class);
  }
}

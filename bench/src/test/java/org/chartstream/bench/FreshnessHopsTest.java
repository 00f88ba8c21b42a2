package org.chartstream.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FreshnessHopsTest {

  @Test
  void hopsOfOneChangeAddUpToItsTotal() {
    FreshnessHops change = new FreshnessHops(1_000, 1_040, 1_500, 1_600, 1_700, 1_750);

    assertThat(change.hopsMs()).containsExactly(40L, 460L, 100L, 100L, 50L);
    assertThat(change.hopsMs().stream().mapToLong(Long::longValue).sum()).isEqualTo(change.totalMs()).isEqualTo(750);
  }

  @Test
  void percentilesArePerHopInPipelineOrder() {
    List<FreshnessHops> changes = List.of(
        new FreshnessHops(0, 10, 400, 500, 600, 650),
        new FreshnessHops(0, 30, 500, 530, 650, 700),
        new FreshnessHops(0, 20, 800, 900, 990, 1_000));

    Map<String, Double> p50 = FreshnessHops.percentiles(changes, 50);

    assertThat(p50.keySet()).containsExactlyElementsOf(FreshnessHops.NAMES);
    assertThat(p50.values()).containsExactly(20.0, 470.0, 100.0, 100.0, 50.0);
    assertThat(FreshnessHops.percentiles(changes, 99).values()).containsExactly(30.0, 780.0, 100.0, 120.0, 50.0);
  }

  @Test
  void jsonHasWholeMillisecondsByHopName() {
    Map<String, Double> p50 = FreshnessHops.percentiles(List.of(new FreshnessHops(0, 12, 412, 512, 612, 650)), 50);

    assertThat(FreshnessHops.json(p50)).isEqualTo("{\"source_commit_to_change_topic\":12, \"change_topic_to_ingest_flush\":400,"
        + " \"ingest_flush_to_index_written\":100, \"index_written_to_committed\":100, \"index_committed_to_searchable\":38}");
  }

  @Test
  void noChangesGiveZeros() {
    assertThat(FreshnessHops.percentiles(List.of(), 50).values()).containsOnly(0.0);
  }
}

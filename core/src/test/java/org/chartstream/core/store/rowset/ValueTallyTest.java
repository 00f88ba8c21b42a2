package org.chartstream.core.store.rowset;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ValueTallyTest {

  private static ValueTally routes() {
    ValueTally tally = new ValueTally();
    tally.add("PO", "p1", 2);
    tally.add("PO", "p2", 1);
    tally.add("IV", "p1", 1);
    tally.add("IM", null, 3);
    return tally;
  }

  @Test
  void distinctValuesInValueOrderWithTheirRowsPatientsAndTheRowsWithoutOne() {
    RowSetResult r = routes().result(new RowSetOutput.DistinctValues("route", 2), 9, 2);
    assertThat(r.values()).containsExactly(new ValueCount("IM", 3, 0), new ValueCount("IV", 1, 1));
    assertThat(r.total()).isEqualTo(3);
    assertThat(r.capped()).isTrue();
    assertThat(r.rowsWithoutValue()).isEqualTo(2);
  }

  @Test
  void topValuesByRowsThenByValue() {
    RowSetResult r = routes().result(new RowSetOutput.TopValues("route", 2), 7, 2);
    assertThat(r.values()).containsExactly(new ValueCount("IM", 3, 0), new ValueCount("PO", 3, 2));
    assertThat(r.capped()).isTrue();
  }
}

package org.chartstream.core.store.rowset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FieldPredicateTest {

  private static final Map<String, String> ROW = Map.of("drug", "Atorvastatin 20 MG", "start", "2020-12-31T10:00:00");

  @Test
  void wholeValuesAndWholeWordsWhateverTheirCase() {
    assertThat(FieldPredicate.AnyOf.of("drug", "ATORVASTATIN 20 mg").test(ROW)).isTrue();
    assertThat(FieldPredicate.AnyOf.of("drug", "atorvastatin").test(ROW)).isFalse();
    assertThat(new FieldPredicate.HasWords("drug", "mg, Atorvastatin").test(ROW)).isTrue();
    assertThat(new FieldPredicate.HasWords("drug", "statin").test(ROW)).isFalse();
    assertThat(FieldValues.words("Essential hypertension (disorder)")).containsExactly("essential", "hypertension",
        "disorder");
  }

  @Test
  void aValueThatStartsWithABoundCountsAsEqualToIt() {
    assertThat(new FieldPredicate.InRange("start", "2020", true, "2020", true).test(ROW)).as("in 2020").isTrue();
    assertThat(new FieldPredicate.InRange("start", null, false, "2020-12-31", true).test(ROW)).isTrue();
    assertThat(new FieldPredicate.InRange("start", null, false, "2020-12-31", false).test(ROW)).isFalse();
    assertThat(new FieldPredicate.InRange("start", "2020-12-31", false, null, false).test(ROW)).isFalse();
    assertThat(FieldPredicate.InRange.since("start", "2021").test(ROW)).isFalse();
    assertThat(FieldPredicate.InRange.before("start", "2021").test(ROW)).isTrue();
  }

  @Test
  void anUnknownFieldMatchesNothingButAbsent() {
    assertThat(FieldPredicate.AnyOf.of("stop", "x").test(ROW)).isFalse();
    assertThat(new FieldPredicate.Present("stop").test(ROW)).isFalse();
    assertThat(new FieldPredicate.Absent("stop").test(ROW)).isTrue();
  }

  @Test
  void aPredicateWithoutAFieldValueWordOrBoundIsRefusedNamingTheField() {
    assertThatThrownBy(() -> new FieldPredicate.AnyOf("route", Set.of())).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("route");
    assertThatThrownBy(() -> new FieldPredicate.HasWords("drug", " - ")).hasMessageContaining("drug");
    assertThatThrownBy(() -> new FieldPredicate.InRange("start", " ", true, null, false))
        .hasMessageContaining("start");
    assertThatThrownBy(() -> new FieldPredicate.Present(" ")).hasMessageContaining("field");
    assertThatThrownBy(() -> new RowSetOutput.Rows(0)).hasMessageContaining("cap");
    assertThatThrownBy(() -> new RowSetOutput.TopValues("route", 0)).hasMessageContaining("n must be");
  }

  @Test
  void logsSeeNoValue() {
    assertThat(FieldPredicate.AnyOf.of("drug", "Lisinopril").toString()).doesNotContain("Lisinopril");
    assertThat(new FieldPredicate.InRange("start", "2020", true, null, false).toString()).doesNotContain("2020");
    assertThat(new ValueCount("Lisinopril", 1, 1).toString()).doesNotContain("Lisinopril");
  }
}

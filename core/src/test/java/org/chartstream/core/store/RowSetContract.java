package org.chartstream.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.chartstream.core.store.rowset.FieldPredicate.Absent;
import org.chartstream.core.store.rowset.FieldPredicate.AnyOf;
import org.chartstream.core.store.rowset.FieldPredicate.HasWords;
import org.chartstream.core.store.rowset.FieldPredicate.InRange;
import org.chartstream.core.store.rowset.FieldPredicate.Present;
import org.chartstream.core.store.rowset.RowSet;
import org.chartstream.core.store.rowset.RowSetOutput;
import org.chartstream.core.store.rowset.RowSetOutput.End;
import org.chartstream.core.store.rowset.RowSetQuery;
import org.chartstream.core.store.rowset.RowSetQuery.ExceptBy;
import org.chartstream.core.store.rowset.RowSetResult;
import org.chartstream.core.store.rowset.RowSetRow;
import org.chartstream.core.store.rowset.ValueCount;
import org.junit.jupiter.api.Test;

/**
 * {@link HybridStore#rowSet}: exact row sets over the rows' fields, for every store whose {@link
 * HybridStore#answersRowSets} is true. A store's test extends this class instead of {@link HybridStoreContract} and
 * runs both.
 */
public abstract class RowSetContract extends HybridStoreContract {

  protected static final TableRef MEDS = new TableRef("clinic", "medications");
  protected static final TableRef CONDS = new TableRef("clinic", "conditions");
  private static final RowSetOutput COUNT = new RowSetOutput.Count();
  private static final RowSetOutput ALL_ROWS = new RowSetOutput.Rows(100);
  private static final PatientLabel P1_LABEL = PatientLabel.of("MRN-1", "Martha Collins", 1961);

  /** A row of {@code table} in {@code gen}: {@code chunks} chunks, the fields on its first. */
  protected static List<StoredChunk> row(TableRef table, String key, long gen, String patient, int chunks,
      String... fieldPairs) {
    RowRef row = new RowRef(table, key);
    Map<String, String> fields = new LinkedHashMap<>();
    for (int i = 0; i < fieldPairs.length; i += 2) {
      fields.put(fieldPairs[i], fieldPairs[i + 1]);
    }
    List<StoredChunk> out = new ArrayList<>();
    for (int i = 0; i < chunks; i++) {
      StoredChunk c = ChunkFixture.of(row).generation(gen).index(i, chunks).patient(patient)
          .label("p1".equals(patient) ? P1_LABEL : null).text(key + " part " + i + " " + String.join(" ", fields.values()))
          .vector(vectorFor(row, gen, i, i % 3)).build();
      out.add(i == 0 ? c.withFields(fields) : c);
    }
    return out;
  }

  private void put(List<StoredChunk> chunks) {
    StoredChunk first = chunks.get(0);
    store.upsertRow(first.row(), first.generation(), chunks);
  }

  /** Medications and conditions of four patients and a row without one, generation 1, published and committed. */
  private void writeClinic() {
    store.publish(MEDS, 1);
    store.publish(CONDS, 1);
    put(row(MEDS, "m1", 1, "p1", 1, "drug", "Atorvastatin 20 MG", "route", "PO", "start", "2021-03-04",
        "stop", "2022-01-01"));
    put(row(MEDS, "m2", 1, "p1", 1, "drug", "Lisinopril 10 MG", "route", "PO", "start", "2023-05-06T10:00:00"));
    put(row(MEDS, "m3", 1, "p2", 1, "drug", "LISINOPRIL 10 mg", "route", "oral", "start", "2020-12-31"));
    put(row(MEDS, "m4", 1, "p2", 3, "drug", "Amoxicillin 500 MG", "route", "IV", "start", "2024-08-31"));
    put(row(MEDS, "m5", 1, "p3", 1, "drug", "Amoxicillin 500 MG", "route", "PO", "start", "2024-08-31"));
    put(row(MEDS, "m6", 1, null, 1, "drug", "Statin education leaflet", "route", "PO"));
    put(row(CONDS, "c1", 1, "p1", 1, "description", "Essential hypertension", "onset", "2019-01-01"));
    put(row(CONDS, "c2", 1, "p2", 1, "description", "Hypertension", "onset", "2020-06-01"));
    put(row(CONDS, "c3", 1, "p3", 1, "description", "Prediabetes", "onset", "2021-02-02"));
    put(row(CONDS, "c4", 1, "p4", 2, "description", "Essential hypertension (disorder)", "onset", "2022-07-01"));
    store.commit(Map.of("index-0", "10"));
  }

  private RowSetResult query(RowSet rows, RowSetOutput output) {
    return store.rowSet(RowSetQuery.of(rows, output));
  }

  private static RowSet meds(org.chartstream.core.store.rowset.FieldPredicate... predicates) {
    return RowSet.of(RetrievalFilter.forTables(MEDS.table()), predicates);
  }

  private static List<String> keys(RowSetResult result) {
    return result.listedRows().stream().map(r -> r.row().rowKey()).toList();
  }

  // ------------------------------------------------------------------------------------------------ cases

  @Test
  void aStoreWithRowFieldsAnswersRowSets() {
    assertThat(store.answersRowSets()).isTrue();
  }

  @Test
  void anEmptyStoreHasAnEmptySet() {
    RowSetResult r = query(meds(), ALL_ROWS);
    assertThat(r.rows()).isZero();
    assertThat(r.listedRows()).isEmpty();
    assertThat(r.capped()).isFalse();
  }

  @Test
  void theFirstChunkKeepsTheRowsFieldsAndTheOthersNone() {
    writeClinic();
    List<StoredChunk> chunks = store.rowChunks(new RowRef(MEDS, "m4"));
    assertThat(chunks).hasSize(3);
    assertThat(chunks.get(0).fields()).containsExactlyInAnyOrderEntriesOf(
        Map.of("drug", "Amoxicillin 500 MG", "route", "IV", "start", "2024-08-31"));
    assertThat(chunks.get(0)).isEqualTo(row(MEDS, "m4", 1, "p2", 3, "drug", "Amoxicillin 500 MG", "route", "IV",
        "start", "2024-08-31").get(0));
    assertThat(chunks.get(1).fields()).isEmpty();
  }

  @Test
  void anyOfMatchesWholeValuesWhateverTheirCase() {
    writeClinic();
    RowSetResult r = query(meds(AnyOf.of("drug", "lisinopril 10 MG", "no such drug")), ALL_ROWS);
    assertThat(keys(r)).containsExactly("m2", "m3");
    assertThat(r.rows()).isEqualTo(2);
    assertThat(r.patients()).isEqualTo(2);
    assertThat(r.total()).isEqualTo(2);
    assertThat(query(meds(AnyOf.of("drug", "lisinopril")), COUNT).rows()).as("a part of a value is not the value")
        .isZero();
  }

  @Test
  void hasWordsMatchesWholeWordsOnly() {
    writeClinic();
    assertThat(keys(query(meds(new HasWords("drug", "STATIN")), ALL_ROWS))).as("not atorvastatin")
        .containsExactly("m6");
    assertThat(keys(query(meds(new HasWords("drug", "500 amoxicillin")), ALL_ROWS))).containsExactly("m4", "m5");
    assertThat(keys(query(RowSet.of(RetrievalFilter.NONE, new HasWords("description", "hypertension")), ALL_ROWS)))
        .containsExactly("c1", "c2", "c4");
  }

  @Test
  void rangesCompareIsoDatesAndTimesAsText() {
    writeClinic();
    assertThat(keys(query(meds(InRange.since("start", "2021")), ALL_ROWS))).containsExactly("m1", "m2", "m4", "m5");
    assertThat(keys(query(meds(InRange.before("start", "2021-01-01")), ALL_ROWS))).containsExactly("m3");
    assertThat(keys(query(meds(new InRange("start", null, false, "2020-12-31", true)), ALL_ROWS)))
        .containsExactly("m3");
    assertThat(keys(query(meds(new InRange("start", "2023-05-06", true, "2023-05-06", true)), ALL_ROWS)))
        .as("a time on the bounds' day is inside inclusive bounds").containsExactly("m2");
    assertThat(keys(query(meds(new InRange("start", "2023-05-06", false, null, false)), ALL_ROWS)))
        .as("and outside an exclusive one").containsExactly("m4", "m5");
    assertThat(keys(query(meds(new InRange("start", "2021", true, "2022", false)), ALL_ROWS))).containsExactly("m1");
  }

  @Test
  void presentAndAbsentFields() {
    writeClinic();
    assertThat(keys(query(meds(new Present("stop")), ALL_ROWS))).containsExactly("m1");
    assertThat(keys(query(meds(new Absent("stop")), ALL_ROWS))).as("no stop date")
        .containsExactly("m2", "m3", "m4", "m5", "m6");
    assertThat(keys(query(meds(new Absent("stop"), new Present("start"), AnyOf.of("route", "po")), ALL_ROWS)))
        .as("predicates are ANDed").containsExactly("m2", "m5");
  }

  @Test
  void anUnknownFieldIsAnEmptySetNotAnError() {
    writeClinic();
    assertThat(query(meds(AnyOf.of("no_such_column", "x")), COUNT).rows()).isZero();
    assertThat(query(meds(new HasWords("no_such_column", "x")), COUNT).rows()).isZero();
    assertThat(query(meds(InRange.since("no_such_column", "x")), COUNT).rows()).isZero();
    RowSetResult values = query(meds(), new RowSetOutput.DistinctValues("no_such_column", 10));
    assertThat(values.values()).isEmpty();
    assertThat(values.total()).isZero();
    assertThat(values.rows()).isEqualTo(6);
    assertThat(values.rowsWithoutValue()).isEqualTo(6);
    assertThat(query(meds(), new RowSetOutput.Extreme("no_such_column", End.LATEST, false, 5)).listedRows()).isEmpty();
    assertThat(query(RowSet.of(RetrievalFilter.forTables("no_such_table")), COUNT).rows()).isZero();
  }

  @Test
  void countsRowsOnceAndDistinctPatientsWithinTheFilter() {
    writeClinic();
    RowSetResult all = query(meds(), COUNT);
    assertThat(all.rows()).as("m4's three chunks are one row").isEqualTo(6);
    assertThat(all.patients()).as("m6 has no patient").isEqualTo(3);
    assertThat(all.listedRows()).isEmpty();
    assertThat(query(meds(new HasWords("drug", "amoxicillin")), COUNT).rows()).isEqualTo(2);
    assertThat(query(RowSet.of(RetrievalFilter.forPatient("p1")), COUNT).rows()).isEqualTo(3);
    assertThat(query(RowSet.of(RetrievalFilter.forSources("elsewhere")), COUNT).rows()).isZero();
    assertThat(query(RowSet.of(RetrievalFilter.forRowKeys("m1", "clinic:conditions:c2")), COUNT).rows()).isEqualTo(2);
  }

  @Test
  void rowsAreListedInRowOrderUpToTheCapWithTheExactTotal() {
    writeClinic();
    RowSetResult capped = query(meds(), new RowSetOutput.Rows(2));
    assertThat(keys(capped)).containsExactly("m1", "m2");
    assertThat(capped.total()).isEqualTo(6);
    assertThat(capped.rows()).isEqualTo(6);
    assertThat(capped.capped()).isTrue();
    RowSetResult whole = query(meds(), ALL_ROWS);
    assertThat(keys(whole)).containsExactly("m1", "m2", "m3", "m4", "m5", "m6");
    assertThat(whole.capped()).isFalse();
    RowSetRow m1 = whole.listedRows().get(0);
    assertThat(m1.patientKey()).isEqualTo("p1");
    assertThat(m1.patient()).isEqualTo(P1_LABEL);
    assertThat(m1.fields()).containsExactlyInAnyOrderEntriesOf(Map.of("drug", "Atorvastatin 20 MG", "route", "PO",
        "start", "2021-03-04", "stop", "2022-01-01"));
    assertThat(whole.listedRows().get(5).patientKey()).isNull();
  }

  @Test
  void exceptRemovesTheSameRows() {
    writeClinic();
    RowSetQuery q = RowSetQuery.of(meds(AnyOf.of("route", "PO")), ALL_ROWS)
        .except(meds(new HasWords("drug", "amoxicillin")), ExceptBy.ROW);
    assertThat(keys(store.rowSet(q))).containsExactly("m1", "m2", "m6");
  }

  @Test
  void exceptByPatientRemovesEveryRowOfAPatientWithARowInIt() {
    writeClinic();
    RowSetQuery q = RowSetQuery.of(RowSet.of(RetrievalFilter.forTables(CONDS.table()),
            new HasWords("description", "hypertension")), ALL_ROWS)
        .except(meds(new HasWords("drug", "lisinopril")), ExceptBy.PATIENT);
    RowSetResult r = store.rowSet(q);
    assertThat(keys(r)).as("hypertension without lisinopril").containsExactly("c4");
    assertThat(r.patients()).isEqualTo(1);
    RowSetQuery keepsPatientless = RowSetQuery.of(meds(new HasWords("drug", "statin")), ALL_ROWS)
        .except(meds(AnyOf.of("route", "IV")), ExceptBy.PATIENT);
    assertThat(keys(store.rowSet(keepsPatientless))).containsExactly("m6");
  }

  @Test
  void distinctValuesAsWrittenWithRowsAndPatients() {
    writeClinic();
    RowSetResult r = query(meds(), new RowSetOutput.DistinctValues("route", 10));
    assertThat(r.values()).containsExactly(new ValueCount("IV", 1, 1), new ValueCount("PO", 4, 2),
        new ValueCount("oral", 1, 1));
    assertThat(r.total()).isEqualTo(3);
    assertThat(r.capped()).isFalse();
    assertThat(r.rowsWithoutValue()).isZero();
    RowSetResult capped = query(meds(), new RowSetOutput.DistinctValues("stop", 10));
    assertThat(capped.values()).containsExactly(new ValueCount("2022-01-01", 1, 1));
    assertThat(capped.rowsWithoutValue()).isEqualTo(5);
    RowSetResult two = query(meds(), new RowSetOutput.DistinctValues("route", 2));
    assertThat(two.values()).extracting(ValueCount::value).containsExactly("IV", "PO");
    assertThat(two.total()).isEqualTo(3);
    assertThat(two.capped()).isTrue();
    assertThat(query(meds(new HasWords("drug", "amoxicillin")), new RowSetOutput.DistinctValues("route", 10))
        .values()).as("how is amoxicillin given").extracting(ValueCount::value).containsExactly("IV", "PO");
  }

  @Test
  void topValuesAreTheMostFrequentFirst() {
    writeClinic();
    RowSetResult r = query(meds(), new RowSetOutput.TopValues("drug", 2));
    assertThat(r.values()).containsExactly(new ValueCount("Amoxicillin 500 MG", 2, 2),
        new ValueCount("Atorvastatin 20 MG", 1, 1));
    assertThat(r.total()).isEqualTo(5);
    assertThat(r.capped()).isTrue();
  }

  @Test
  void latestAndEarliestOverallAndPerPatientKeepTies() {
    writeClinic();
    RowSetResult latest = query(meds(), new RowSetOutput.Extreme("start", End.LATEST, false, 10));
    assertThat(keys(latest)).as("tied on 2024-08-31").containsExactly("m4", "m5");
    assertThat(latest.total()).isEqualTo(2);
    assertThat(latest.rows()).isEqualTo(6);
    assertThat(latest.rowsWithoutValue()).as("m6 has no start").isEqualTo(1);
    assertThat(keys(query(meds(), new RowSetOutput.Extreme("start", End.EARLIEST, false, 10)))).containsExactly("m3");
    RowSetResult perPatient = query(meds(), new RowSetOutput.Extreme("start", End.LATEST, true, 10));
    assertThat(keys(perPatient)).containsExactly("m2", "m4", "m5");
    RowSetResult capped = query(meds(), new RowSetOutput.Extreme("start", End.EARLIEST, true, 2));
    assertThat(keys(capped)).containsExactly("m1", "m3");
    assertThat(capped.total()).isEqualTo(3);
    assertThat(capped.capped()).isTrue();
  }

  @Test
  void onlyTheActiveGenerationsCommittedRowsCount() {
    writeClinic();
    put(row(MEDS, "m7", 2, "p5", 1, "drug", "Amoxicillin 500 MG", "route", "PO"));
    put(row(MEDS, "m1", 2, "p1", 2, "drug", "Amoxicillin 500 MG", "route", "PO"));
    store.commit(null);
    assertThat(query(meds(new HasWords("drug", "amoxicillin")), COUNT).rows())
        .as("a staged generation's rows are not counted").isEqualTo(2);

    store.deleteRow(new RowRef(MEDS, "m5"));
    store.commit(null);
    assertThat(keys(query(meds(new HasWords("drug", "amoxicillin")), ALL_ROWS))).as("a deleted row is gone")
        .containsExactly("m4");

    store.upsertRow(new RowRef(MEDS, "m2"), 1, row(MEDS, "m2", 1, "p1", 1, "drug", "Lisinopril 10 MG"));
    assertThat(query(meds(AnyOf.of("route", "PO")), COUNT).rows()).as("an uncommitted write is not seen")
        .isEqualTo(3);
    store.commit(null);
    assertThat(query(meds(AnyOf.of("route", "PO")), COUNT).rows()).as("a rewritten row has its new fields")
        .isEqualTo(2);

    store.publish(MEDS, 2);
    store.commit(null);
    RowSetResult published = query(meds(), ALL_ROWS);
    assertThat(keys(published)).as("the retired generation's rows are gone").containsExactly("m1", "m7");
    assertThat(query(meds(new HasWords("drug", "amoxicillin")), COUNT).rows()).isEqualTo(2);
    assertThat(query(RowSet.of(RetrievalFilter.NONE), COUNT).rows()).as("with the other table's").isEqualTo(6);
  }

  @Test
  void rowSetsSurviveAReopen() throws Exception {
    writeClinic();
    reopen();
    assertThat(keys(query(meds(AnyOf.of("route", "iv")), ALL_ROWS))).containsExactly("m4");
    assertThat(query(meds(), new RowSetOutput.DistinctValues("route", 10)).total()).isEqualTo(3);
  }

  @Test
  void aColumnNameWithDotsDollarsOrPercentSignsIsAFieldLikeAnyOther() {
    store.publish(MEDS, 1);
    put(row(MEDS, "m1", 1, "p1", 1, "dose.unit", "mg", "$route", "PO", "100%", "yes"));
    put(row(MEDS, "m2", 1, "p2", 1, "dose%2Eunit", "ml"));
    store.commit(null);
    assertThat(keys(query(meds(AnyOf.of("dose.unit", "MG"), new Present("$route"), new HasWords("100%", "yes")),
        ALL_ROWS))).containsExactly("m1");
    assertThat(keys(query(meds(new Present("dose%2Eunit")), ALL_ROWS))).containsExactly("m2");
    assertThat(query(meds(), ALL_ROWS).listedRows().get(0).fields()).containsOnlyKeys("dose.unit", "$route", "100%");
    assertThat(query(meds(), new RowSetOutput.DistinctValues("dose.unit", 5)).values())
        .containsExactly(new ValueCount("mg", 1, 1));
  }

  @Test
  void aValueLongerThanATermIsStillPresentFoundByItsWordsAndListed() {
    String note = "wheezing at night ".repeat(3_000) + "inhaler";
    store.publish(MEDS, 1);
    put(row(MEDS, "m1", 1, "p1", 1, "note", note));
    put(row(MEDS, "m2", 1, "p2", 1, "note", "short"));
    store.commit(null);
    assertThat(keys(query(meds(new Present("note"), new HasWords("note", "inhaler")), ALL_ROWS))).containsExactly("m1");
    RowSetResult values = query(meds(), new RowSetOutput.DistinctValues("note", 5));
    assertThat(values.values()).extracting(ValueCount::value).containsExactly("short", note);
    assertThat(values.rowsWithoutValue()).isZero();
    assertThat(keys(query(meds(), new RowSetOutput.Extreme("note", End.LATEST, false, 5)))).containsExactly("m1");
  }

  @Test
  void rowsWrittenWithoutFieldsAreCountedSoACallerKnowsItsSetMayBeIncomplete() {
    writeClinic();
    assertThat(store.rowsWithoutFields(RetrievalFilter.NONE)).isZero();
    RowRef old = new RowRef(MEDS, "m0");
    store.upsertRow(old, 1, chunks(old, 1, "p1", 0, "drug: Simvastatin 20 MG", "route: PO"));
    store.commit(null);
    assertThat(store.rowsWithoutFields(RetrievalFilter.forTables(MEDS.table()))).as("one row, two chunks").isEqualTo(1);
    assertThat(store.rowsWithoutFields(RetrievalFilter.forTables(CONDS.table()))).isZero();
    assertThat(store.rowsWithoutFields(RetrievalFilter.forPatient("p2"))).isZero();
  }
}

package org.chartstream.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.chartstream.core.store.rowset.RowSet;
import org.chartstream.core.store.rowset.RowSetOutput;
import org.chartstream.core.store.rowset.RowSetQuery;
import org.junit.jupiter.api.Test;

/** The port's defaults, for a store that implements only the required methods. */
class HybridStoreDefaultsTest {

  @Test
  void aStoreThatCannotWeighTermsRunsTheWeightedTextsAsOnePlainQuery() {
    List<String> asked = new ArrayList<>();
    List<SearchHit> hits = List.of(new SearchHit(ChunkFixture.of("ehr", "notes", "a").build(), 3.0, 1));
    HybridStore store = (HybridStore) Proxy.newProxyInstance(HybridStore.class.getClassLoader(),
        new Class<?>[] {HybridStore.class}, (proxy, method, args) -> {
          if (method.isDefault()) {
            return InvocationHandler.invokeDefault(proxy, method, args);
          }
          if (method.getName().equals("lexicalSearch")) {
            asked.add(args[0] + " k=" + args[1]);
            return hits;
          }
          throw new UnsupportedOperationException(method.getName());
        });

    List<SearchHit> out = store.weightedLexicalSearch(
        List.of(new WeightedText("gout pain", 0.35), new WeightedText("uric", 0.1)), 7, RetrievalFilter.NONE);

    assertThat(store.weighsLexicalTerms()).isFalse();
    assertThat(asked).containsExactly("gout pain uric k=7");
    assertThat(out).isSameAs(hits);
  }

  @Test
  void aStoreWithoutRowFieldsSaysItAnswersNoRowSetAndRefusesOne() {
    HybridStore store = (HybridStore) Proxy.newProxyInstance(HybridStore.class.getClassLoader(),
        new Class<?>[] {HybridStore.class}, (proxy, method, args) -> InvocationHandler.invokeDefault(proxy, method, args));
    RowSetQuery count = RowSetQuery.of(RowSet.of(RetrievalFilter.NONE), new RowSetOutput.Count());

    assertThat(store.answersRowSets()).isFalse();
    assertThatThrownBy(() -> store.rowSet(count)).isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("row-set");
    assertThatThrownBy(() -> store.rowsWithoutFields(RetrievalFilter.NONE))
        .isInstanceOf(UnsupportedOperationException.class);
  }
}

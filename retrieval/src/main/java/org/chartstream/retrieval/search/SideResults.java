package org.chartstream.retrieval.search;

import java.util.List;
import org.chartstream.core.store.SearchHit;

/** What each search side returned for one question, best first. */
public record SideResults(List<SearchHit> vector, List<SearchHit> lexical) {
}

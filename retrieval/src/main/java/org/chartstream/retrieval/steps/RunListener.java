package org.chartstream.retrieval.steps;

import java.util.List;
import org.chartstream.retrieval.generate.Passage;

/** Told as a run progresses, so replies can stream: citations first, then answer tokens. */
public interface RunListener {
    default void onCitations(List<Passage> passages) {
    }

    default void onToken(String token) {
    }
}

package org.chartstream.retrieval.dedupe;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/** Keeps the strongest (first-ranked) item per source row, so one long row cannot fill the context alone. */
public final class RowDedupe {
    private RowDedupe() {
    }

    public static <T> List<T> strongestPerRow(List<T> ranked, Function<T, String> rowId) {
        Set<String> seen = new HashSet<>();
        List<T> kept = new ArrayList<>();
        for (T item : ranked) {
            if (seen.add(rowId.apply(item))) {
                kept.add(item);
            }
        }
        return kept;
    }
}

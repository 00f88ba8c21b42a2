package org.chartstream.retrieval.plan;

import java.util.List;
import java.util.Objects;
import org.chartstream.retrieval.Completeness;
import org.chartstream.retrieval.SetResult;
import org.chartstream.retrieval.generate.Passage;

/**
 * An executed plan as the reply gives it: its text, the rows it cites, the structured result and how complete it is;
 * or a refusal ({@code set} null) saying why.
 */
public record SetAnswer(String text, List<Passage> passages, SetResult set, Completeness completeness, String refusal) {
    public SetAnswer {
        passages = List.copyOf(passages);
    }

    public static SetAnswer refused(String reason) {
        return new SetAnswer("", List.of(), null, null, Objects.requireNonNull(reason, "reason"));
    }

    public boolean isRefusal() {
        return refusal != null;
    }

    /** Sizes only. */
    @Override
    public String toString() {
        return "SetAnswer[" + (isRefusal() ? "refused" : set + ", " + passages.size() + " passage(s)") + "]";
    }
}

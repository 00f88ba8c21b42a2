package org.chartstream.retrieval.context;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.chartstream.core.model.TokenCounter;
import org.chartstream.core.store.RowTextRejoiner;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.retrieval.Candidate;

/**
 * The default {@link ContextBuilder}: best passage first, each row (one candidate each) gets at most
 * {@code perRowTokens} and what is left of {@code totalTokens}, for at most {@code maxPassages} rows.
 *
 * <p>Parent-row expansion: a row's text grows from the retrieved chunk to its neighbours, alternately the next and
 * the previous chunk, while the rejoined text ({@link RowTextRejoiner}: header once, overlaps once) fits the row's
 * budget; a direction stops at the first chunk that does not fit. A retrieved chunk that alone exceeds the budget is
 * cut at a word boundary. When the row's current chunks no longer include the retrieved one (the row changed since
 * the search), the retrieved chunk is used alone, so the text always matches what is cited.
 */
public final class BudgetedContextBuilder implements ContextBuilder {
    private final TokenCounter counter;
    private final ContextBudget budget;
    private final SiblingChunks siblings;

    public BudgetedContextBuilder(TokenCounter counter, ContextBudget budget, SiblingChunks siblings) {
        this.counter = Objects.requireNonNull(counter, "counter");
        this.budget = Objects.requireNonNull(budget, "budget");
        this.siblings = Objects.requireNonNull(siblings, "siblings");
    }

    /** With the configured budget's number of passages. */
    public List<ContextPassage> build(List<Candidate> gated) {
        return build(gated, budget);
    }

    @Override
    public List<ContextPassage> build(List<Candidate> gated, int passages) {
        return build(gated, budget.forPassages(passages));
    }

    private List<ContextPassage> build(List<Candidate> gated, ContextBudget applied) {
        List<ContextPassage> passages = new ArrayList<>();
        int left = applied.totalTokens();
        for (Candidate candidate : gated) {
            if (passages.size() == applied.maxPassages() || left < applied.minUsefulTokens()) {
                break;
            }
            ContextPassage passage = expand(passages.size() + 1, candidate, Math.min(applied.perRowTokens(), left));
            passages.add(passage);
            left -= passage.tokens();
        }
        return passages;
    }

    private ContextPassage expand(int index, Candidate candidate, int rowBudget) {
        StoredChunk anchor = candidate.chunk();
        int tokens = counter.count(anchor.text());
        if (tokens > rowBudget) {
            TokenTruncation.Truncated cut = TokenTruncation.truncate(counter, anchor.text(), rowBudget);
            return new ContextPassage(index, anchor, List.of(anchor), cut.text(), cut.tokens(), true, candidate.rerankScore());
        }
        List<StoredChunk> row = rowOf(anchor);
        int at = indexOf(row, anchor);
        Window window = new Window(row, at, at, anchor.text(), tokens);
        boolean next = true;
        boolean previous = true;
        while (next || previous) {
            next = next && window.growTo(window.from, window.to + 1, rowBudget);
            previous = previous && window.growTo(window.from - 1, window.to, rowBudget);
        }
        return new ContextPassage(index, anchor, row.subList(window.from, window.to + 1), window.text, window.tokens,
                false, candidate.rerankScore());
    }

    /** The chunks {@code from..to} of a row, rejoined, and their token count. */
    private final class Window {
        private final List<StoredChunk> row;
        private int from;
        private int to;
        private String text;
        private int tokens;

        Window(List<StoredChunk> row, int from, int to, String text, int tokens) {
            this.row = row;
            this.from = from;
            this.to = to;
            this.text = text;
            this.tokens = tokens;
        }

        /** Takes the chunks {@code newFrom..newTo} if they exist and fit {@code budget}; says whether it did. */
        boolean growTo(int newFrom, int newTo, int budget) {
            if (newFrom < 0 || newTo >= row.size()) {
                return false;
            }
            List<String> texts = new ArrayList<>(newTo - newFrom + 1);
            for (int i = newFrom; i <= newTo; i++) {
                texts.add(row.get(i).text());
            }
            String candidate = RowTextRejoiner.rejoin(texts);
            int n = counter.count(candidate);
            if (n > budget) {
                return false;
            }
            from = newFrom;
            to = newTo;
            text = candidate;
            tokens = n;
            return true;
        }
    }

    private List<StoredChunk> rowOf(StoredChunk anchor) {
        List<StoredChunk> row = siblings.of(anchor.row());
        return row != null && indexOf(row, anchor) >= 0 ? row : List.of(anchor);
    }

    private static int indexOf(List<StoredChunk> row, StoredChunk anchor) {
        for (int i = 0; i < row.size(); i++) {
            if (row.get(i).chunkId().equals(anchor.chunkId())) {
                return i;
            }
        }
        return -1;
    }
}

package org.chartstream.retrieval.steps;

import java.util.ArrayList;
import java.util.List;
import org.chartstream.retrieval.embed.SentenceVectorSearch;
import org.chartstream.retrieval.search.HybridSearcher;
import org.chartstream.retrieval.search.SideResults;

/**
 * Vector and lexical search per variant, concurrently ({@link HybridSearcher}), the lexical side by the weighted
 * words when the embed step weighed them; the first variant's vector list then merged with its sentences' lists
 * ({@link SentenceVectorSearch#vectorList}).
 */
public record SearchStep(HybridSearcher searcher, SentenceVectorSearch sentences) implements QueryStep {
    @Override
    public String name() { return "search"; }

    @Override
    public Next run(QueryRun run) {
        SentenceVectorSearch.Embedded embedded = run.embedded();
        List<float[]> vectors = embedded == null ? null : embedded.variants();
        List<SideResults> sides = run.weightedLexical() == null
                ? searcher.searchAll(run.mode(), vectors, run.lexicalQueries(), run.filter())
                : searcher.searchAllWeighted(run.mode(), vectors, run.weightedLexical(), run.filter());
        if (embedded != null) {
            List<SideResults> merged = new ArrayList<>(sides);
            SideResults first = sides.get(0);
            merged.set(0, new SideResults(sentences.vectorList(first.vector(), embedded, run.filter()), first.lexical()));
            sides = merged;
        }
        run.sides(sides);
        return Next.CONTINUE;
    }
}

package org.chartstream.retrieval.steps;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.chartstream.core.store.WeightedText;
import org.chartstream.retrieval.SearchMode;
import org.chartstream.retrieval.embed.QueryEmbedder;
import org.chartstream.retrieval.embed.SentenceVectorSearch;
import org.chartstream.retrieval.rewrite.ExactTerms;
import org.chartstream.retrieval.search.QuestionTermWeights;

/**
 * One embedding batch for the variants and the first variant's sentences ({@link SentenceVectorSearch}), each
 * variant's lexical query with its exact terms, and, unless off, the lexical query's words weighted by the model
 * ({@link QuestionTermWeights}).
 */
public record EmbedStep(QueryEmbedder embedder, SentenceVectorSearch sentences, Settings settings) implements QueryStep {
    /**
     * @param termWeights        whether the lexical query's words are weighted
     * @param storeWeighsTerms   whether the store applies the weights (else the words are searched as asked)
     */
    public record Settings(QuestionTermWeights termWeights, boolean storeWeighsTerms) {
    }

    @Override
    public String name() { return "embed"; }

    @Override
    public Next run(QueryRun run) {
        List<String> variants = run.variants();
        SentenceVectorSearch.Embedded embedded = run.mode() == SearchMode.LEXICAL ? null : sentences.embed(variants);
        List<String> lexicalQueries = variants.stream().map(ExactTerms::lexicalQuery).toList();
        run.embedded(embedded, lexicalQueries, termWeighted(run.mode(), variants, embedded, lexicalQueries));
        return Next.CONTINUE;
    }

    /**
     * Each variant's lexical query with its words weighted by the embedding model; null when the setting is off, no
     * lexical search runs or the store cannot weigh terms. A variant the rule leaves as asked (no word, too many) is its
     * plain lexical query at weight 1, which scores as the plain search does.
     */
    private List<List<WeightedText>> termWeighted(SearchMode mode, List<String> variants, SentenceVectorSearch.Embedded embedded,
                                                  List<String> lexicalQueries) {
        if (!settings.termWeights().on() || mode == SearchMode.VECTOR || !settings.storeWeighsTerms()) {
            return null;
        }
        List<float[]> questionVectors = embedded != null ? embedded.variants() : List.of(embedder.embedQueries(variants));
        List<Optional<List<WeightedText>>> weighted = QuestionTermWeights.queries(variants, questionVectors, embedder);
        List<List<WeightedText>> out = new ArrayList<>(variants.size());
        for (int i = 0; i < variants.size(); i++) {
            out.add(weighted.get(i).orElse(List.of(new WeightedText(lexicalQueries.get(i), 1.0))));
        }
        return out;
    }
}

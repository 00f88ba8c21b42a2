package org.chartstream.retrieval;

import java.util.Map;
import java.util.concurrent.ExecutorService;
import org.chartstream.core.binding.SourceBinding;
import org.chartstream.core.llm.ChatModel;
import org.chartstream.core.model.Reranker;
import org.chartstream.core.model.TokenCounter;
import org.chartstream.retrieval.cohort.CohortStage;
import org.chartstream.retrieval.context.BudgetedContextBuilder;
import org.chartstream.retrieval.context.ContextBudget;
import org.chartstream.retrieval.embed.QueryEmbedder;
import org.chartstream.retrieval.generate.EmbeddingSentenceScorer;
import org.chartstream.retrieval.generate.ExtractiveGenerator;
import org.chartstream.retrieval.generate.GenerationSettings;
import org.chartstream.retrieval.generate.Generator;
import org.chartstream.retrieval.generate.LlmGroundedGenerator;
import org.chartstream.retrieval.plan.WholeSets;
import org.chartstream.retrieval.rerank.PrefixRerankStage;
import org.chartstream.retrieval.rerank.RerankStage;
import org.chartstream.retrieval.rerank.ScoreScale;
import org.chartstream.retrieval.rerank.StoredVectorRerankStage;
import org.chartstream.retrieval.rewrite.LlmQueryRewriter;
import org.chartstream.retrieval.rewrite.NoEndpointRewriter;
import org.chartstream.retrieval.rewrite.QueryRewriter;
import org.chartstream.retrieval.rewrite.RewriteSettings;
import org.chartstream.retrieval.scope.PatientDirectory;
import org.chartstream.retrieval.search.HybridSearcher;
import org.chartstream.retrieval.search.SearchIndex;

/**
 * The default implementation of every stage, given the outside systems (the index's read side, models, optional local
 * LLM). A cross-encoder reorders the rerank prefix; without one the prefix keeps the fused order and is scored with
 * the bi-encoder vectors the search hits carried.
 */
public final class StandardStages {
    private StandardStages() {
    }

    /**
     * @param chatModel the local OpenAI-compatible endpoint, or null when none is configured (then: no rewrite and
     *                  an extractive answer)
     * @param patients  the patients questions can name (built from the index by the wiring)
     */
    public static QueryPipeline.Stages of(QueryEmbedder embedder, SearchIndex index, ExecutorService searchExecutor,
                                          QuerySettings settings, Reranker reranker, TokenCounter tokens, ChatModel chatModel,
                                          PatientDirectory patients) {
        return of(embedder, index, searchExecutor, settings, reranker, tokens, chatModel, patients, Map.of());
    }

    /**
     * @param bindings every source's binding, by source id: questions over a whole set are planned on the tables they
     *                 bind ({@link WholeSets}); none (an empty map) and every question keeps the cohort and ranked paths
     */
    public static QueryPipeline.Stages of(QueryEmbedder embedder, SearchIndex index, ExecutorService searchExecutor,
                                          QuerySettings settings, Reranker reranker, TokenCounter tokens, ChatModel chatModel,
                                          PatientDirectory patients, Map<String, SourceBinding> bindings) {
        ScoreScale scale = ScoreScale.of(reranker);
        RerankStage rerank = switch (scale) {
            case CROSS_ENCODER_SIGMOID -> new PrefixRerankStage(reranker);
            case BI_ENCODER_COSINE -> new StoredVectorRerankStage(embedder, reranker);
        };
        QueryRewriter rewriter = chatModel == null ? new NoEndpointRewriter() : new LlmQueryRewriter(chatModel, RewriteSettings.defaults());
        Generator generator = chatModel == null
                ? new ExtractiveGenerator(new EmbeddingSentenceScorer(embedder), settings.maxPassageChars())
                : new LlmGroundedGenerator(chatModel, GenerationSettings.defaults());
        return new QueryPipeline.Stages(rewriter, embedder, new HybridSearcher(index, searchExecutor, settings.perSide()), rerank,
                settings.gate().gateFor(reranker.scorer(), scale),
                new BudgetedContextBuilder(tokens, ContextBudget.defaults(), index::rowChunks), generator,
                new CohortStage(index.termIndex().orElse(null), index::indexedTables, settings.cohortCap(),
                        bindings.isEmpty() ? null : WholeSets.of(index, bindings, settings.cohortCap(), settings.maxPassageChars(), embedder)),
                patients);
    }
}

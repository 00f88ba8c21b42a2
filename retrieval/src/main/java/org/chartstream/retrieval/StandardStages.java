package org.chartstream.retrieval;

import java.util.concurrent.ExecutorService;
import org.chartstream.core.llm.ChatModel;
import org.chartstream.core.model.Reranker;
import org.chartstream.core.model.TokenCounter;
import org.chartstream.core.store.HybridStore;
import org.chartstream.retrieval.cohort.CohortStage;
import org.chartstream.retrieval.context.BudgetedContextBuilder;
import org.chartstream.retrieval.context.ContextBudget;
import org.chartstream.retrieval.embed.QueryEmbedder;
import org.chartstream.retrieval.generate.EmbeddingSentenceScorer;
import org.chartstream.retrieval.generate.ExtractiveGenerator;
import org.chartstream.retrieval.generate.GenerationSettings;
import org.chartstream.retrieval.generate.LlmGroundedGenerator;
import org.chartstream.retrieval.rerank.PrefixRerankStage;
import org.chartstream.retrieval.rerank.StoredVectorRerankStage;
import org.chartstream.retrieval.rewrite.LlmQueryRewriter;
import org.chartstream.retrieval.rewrite.NoEndpointRewriter;
import org.chartstream.retrieval.rewrite.RewriteSettings;
import org.chartstream.retrieval.scope.PatientDirectory;
import org.chartstream.retrieval.search.HybridSearcher;

/**
 * The default implementation of every stage, given the outside systems (store, models, optional local LLM). A
 * cross-encoder reorders the rerank prefix; without one the prefix keeps the fused order and is scored with the
 * bi-encoder vectors the search hits carried.
 */
public final class StandardStages {
    private StandardStages() {
    }

    /**
     * @param chatModel the local OpenAI-compatible endpoint, or null when none is configured (then: no rewrite and
     *                  an extractive answer)
     * @param patients  the patients questions can name (built from the index by the wiring)
     */
    public static QueryPipeline.Stages of(QueryEmbedder embedder, HybridStore store, ExecutorService searchExecutor,
                                          QuerySettings settings, Reranker reranker, TokenCounter tokens, ChatModel chatModel,
                                          PatientDirectory patients) {
        return new QueryPipeline.Stages(
                chatModel == null ? new NoEndpointRewriter() : new LlmQueryRewriter(chatModel, RewriteSettings.defaults()),
                embedder,
                new HybridSearcher(store, searchExecutor, settings.perSide()),
                Reranker.CROSS_ENCODER_SIGMOID.equals(reranker.scorer()) ? new PrefixRerankStage(reranker)
                        : new StoredVectorRerankStage(embedder, reranker),
                settings.gateFor(reranker.scorer()),
                new BudgetedContextBuilder(tokens, ContextBudget.defaults(), store::rowChunks),
                chatModel == null ? new ExtractiveGenerator(new EmbeddingSentenceScorer(embedder), settings.maxPassageChars())
                        : new LlmGroundedGenerator(chatModel, GenerationSettings.defaults()),
                new CohortStage(store.termIndex().orElse(null), () -> store.activeGenerations().keySet(), settings.cohortCap()),
                patients);
    }
}

package org.chartstream.query;

import java.util.concurrent.ExecutorService;
import org.chartstream.models.rerank.Reranker;
import org.chartstream.query.context.BudgetedContextBuilder;
import org.chartstream.query.context.ContextBudget;
import org.chartstream.query.context.TokenCounter;
import org.chartstream.query.embed.QueryEmbedder;
import org.chartstream.query.generate.ExtractiveGenerator;
import org.chartstream.query.generate.GenerationSettings;
import org.chartstream.query.generate.LlmGroundedGenerator;
import org.chartstream.query.llm.ChatModel;
import org.chartstream.query.rerank.StoredVectorRerankStage;
import org.chartstream.query.rerank.PrefixRerankStage;
import org.chartstream.query.rewrite.LlmQueryRewriter;
import org.chartstream.query.rewrite.NoEndpointRewriter;
import org.chartstream.query.rewrite.RewriteSettings;
import org.chartstream.query.search.HybridSearcher;
import org.chartstream.store.HybridStore;

/**
 * The default implementation of every stage, given the outside systems (store, models, optional local LLM). A
 * cross-encoder reorders the rerank prefix; without one the prefix keeps the fused order and is scored with the
 * stored bi-encoder vectors.
 */
public final class StandardStages {
    private StandardStages() {
    }

    /**
     * @param chatModel the local OpenAI-compatible endpoint, or null when none is configured (then: no rewrite and
     *                  an extractive answer)
     */
    public static QueryPipeline.Stages of(QueryEmbedder embedder, HybridStore store, ExecutorService searchExecutor,
                                          QuerySettings settings, Reranker reranker, TokenCounter tokens, ChatModel chatModel) {
        return new QueryPipeline.Stages(
                chatModel == null ? new NoEndpointRewriter() : new LlmQueryRewriter(chatModel, RewriteSettings.defaults()),
                embedder,
                new HybridSearcher(store, searchExecutor, settings.perSide()),
                Reranker.CROSS_ENCODER_SIGMOID.equals(reranker.scorer()) ? new PrefixRerankStage(reranker)
                        : new StoredVectorRerankStage(embedder, store, reranker),
                settings.gateFor(reranker.scorer()),
                new BudgetedContextBuilder(tokens, ContextBudget.defaults(), store::rowChunks),
                chatModel == null ? new ExtractiveGenerator(settings.maxPassageChars())
                        : new LlmGroundedGenerator(chatModel, GenerationSettings.defaults()));
    }
}

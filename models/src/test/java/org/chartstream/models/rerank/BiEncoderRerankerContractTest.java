package org.chartstream.models.rerank;

import org.chartstream.core.model.Reranker;
import org.chartstream.core.model.RerankerContract;
import org.chartstream.models.ModelDescriptor;
import org.chartstream.models.OnnxEmbedder;
import org.chartstream.models.OnnxRuntimeGuard;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

class BiEncoderRerankerContractTest extends RerankerContract {
    private static OnnxEmbedder embedder;
    private static BiEncoderReranker reranker;

    @BeforeAll
    static void load() {
        OnnxRuntimeGuard.shortenInformationalClassPathProperties();
        embedder = OnnxEmbedder.load(ModelDescriptor.ALL_MINILM_L6_V2, 2, 2);
        reranker = new BiEncoderReranker(embedder);
    }

    @AfterAll
    static void close() {
        reranker.close();
        embedder.close();
    }

    @Override
    protected Reranker reranker() {
        return reranker;
    }
}

package org.chartstream.ingest;

import org.chartstream.models.ModelDescriptor;
import org.chartstream.models.OnnxEmbedder;
import org.chartstream.models.OnnxRuntimeGuard;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/** The real ONNX embedding model of a test class ({@code @RegisterExtension static}): loaded before its tests, closed after. */
final class RealEmbeddingModel implements BeforeAllCallback, AfterAllCallback {
    private OnnxEmbedder model;

    @Override
    public void beforeAll(ExtensionContext context) {
        OnnxRuntimeGuard.shortenInformationalClassPathProperties();
        model = OnnxEmbedder.load(ModelDescriptor.ALL_MINILM_L6_V2, 2);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        model.close();
    }

    OnnxEmbedder model() {
        return model;
    }
}

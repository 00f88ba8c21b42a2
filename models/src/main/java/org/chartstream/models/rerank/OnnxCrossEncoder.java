package org.chartstream.models.rerank;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.chartstream.core.model.Reranker;
import org.chartstream.models.EncoderSession;
import org.chartstream.models.OnnxSessions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Reranker} over a cross-encoder ONNX graph run by ONNX Runtime: each (query, passage) pair is encoded
 * together by the model's own tokenizer ({@link PairTokenizer}), the graph returns one logit per pair, and the score
 * is the sigmoid of that logit.
 *
 * <p>Pairs are sorted by token count and run in sub-batches of at most {@code batchSize}, each padded only to its own
 * longest pair (padding positions get attention mask 0, token type 0 and the pad id), so a pair's score does not
 * depend on the other pairs of the call. Logits of shape [B,1] or [B] are used as they are; for [B,C] with C &gt; 1
 * (a classifier head with a "not relevant" column first) the last column is the relevance logit.
 *
 * <p>Thread-safe: ONNX Runtime sessions accept concurrent runs. {@link #close()} waits for running calls.
 */
public final class OnnxCrossEncoder implements Reranker {

    public static final int DEFAULT_BATCH_SIZE = 16;

    private static final Logger LOG = LoggerFactory.getLogger(OnnxCrossEncoder.class);
    private static final String LOGITS = "logits";

    private final CrossEncoderDescriptor descriptor;
    private final PairTokenizer tokenizer;
    private final EncoderSession session;
    private final int batchSize;

    private OnnxCrossEncoder(CrossEncoderDescriptor descriptor, PairTokenizer tokenizer, EncoderSession session,
            int batchSize) {
        this.descriptor = descriptor;
        this.tokenizer = tokenizer;
        this.session = session;
        this.batchSize = batchSize;
    }

    /** Loads with the {@linkplain #DEFAULT_BATCH_SIZE default} sub-batch size. */
    public static OnnxCrossEncoder load(CrossEncoderDescriptor d, int intraOpThreads) {
        return load(d, intraOpThreads, DEFAULT_BATCH_SIZE);
    }

    /**
     * Loads the tokenizer and the ONNX session.
     *
     * @param intraOpThreads ONNX Runtime threads per run
     * @param batchSize      most pairs per ONNX Runtime run
     * @throws org.chartstream.models.ModelResourceNotFoundException when the graph or the tokenizer is missing
     */
    public static OnnxCrossEncoder load(CrossEncoderDescriptor d, int intraOpThreads, int batchSize) {
        Objects.requireNonNull(d, "descriptor");
        if (intraOpThreads < 1) {
            throw new IllegalArgumentException("intraOpThreads must be positive, was " + intraOpThreads);
        }
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be positive, was " + batchSize);
        }
        long t0 = System.nanoTime();
        PairTokenizer tokenizer;
        try (InputStream in = CrossEncoderResources.open(d.tokenizerResource(), d)) {
            tokenizer = PairTokenizer.load(in, d.maxTokens());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read tokenizer " + d.tokenizerResource() + " of cross-encoder '"
                    + d.id() + "'", e);
        }
        EncoderSession session = EncoderSession.open(env -> OnnxSessions.create(env, intraOpThreads,
                        CrossEncoderResources.isFile(d.onnxResource()) ? CrossEncoderResources.existingFile(d.onnxResource(), d) : null,
                        () -> CrossEncoderResources.readAll(d.onnxResource(), d)),
                LOGITS, "cross-encoder '" + d.id() + "'",
                "ONNX graph " + d.onnxResource() + " of cross-encoder '" + d.id() + "'", tokenizer::close);
        LOG.info("loaded cross-encoder {} ({} tokens per pair, batch {}) in {} ms", d.id(), d.maxTokens(), batchSize,
                (System.nanoTime() - t0) / 1_000_000);
        return new OnnxCrossEncoder(d, tokenizer, session, batchSize);
    }

    @Override
    public String name() {
        return "cross-encoder " + descriptor.id();
    }

    @Override
    public String scorer() {
        return CROSS_ENCODER_SIGMOID;
    }

    public CrossEncoderDescriptor descriptor() {
        return descriptor;
    }

    /** This encoder's pair tokenizer, closed with the encoder. */
    public PairTokenizer tokenizer() {
        return tokenizer;
    }

    @Override
    public double[] score(String query, List<String> passages) {
        Objects.requireNonNull(query, "query");
        Objects.requireNonNull(passages, "passages");
        int n = passages.size();
        double[] scores = new double[n];
        if (n == 0) {
            return scores;
        }
        return session.whileOpen(() -> {
            PairTokenizer.PairEncoding[] pairs = new PairTokenizer.PairEncoding[n];
            for (int i = 0; i < n; i++) {
                pairs[i] = tokenizer.encode(query, Objects.requireNonNull(passages.get(i), "passages[" + i + "]"));
            }
            int[] order = EncoderSession.longestFirst(pairs);
            for (int from = 0; from < n; from += batchSize) {
                int[] sub = Arrays.copyOfRange(order, from, Math.min(n, from + batchSize));
                session.run(pairs, sub, tokenizer.padId(), (shape, logits) -> {
                    int columns = relevanceColumns(shape, sub.length);
                    for (int r = 0; r < sub.length; r++) {
                        scores[sub[r]] = sigmoid(logits.get(r * columns + columns - 1));
                    }
                });
            }
            return scores;
        });
    }

    private int relevanceColumns(long[] shape, int batch) {
        if (shape.length == 1 && shape[0] == batch) {
            return 1;
        }
        if (shape.length == 2 && shape[0] == batch && shape[1] >= 1) {
            return (int) shape[1];
        }
        throw new IllegalStateException("cross-encoder '" + descriptor.id() + "' output " + session.outputName()
                + " has shape " + Arrays.toString(shape) + " for a batch of " + batch + "; expected [B], [B,1] or [B,C]");
    }

    static double sigmoid(double x) {
        return x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x));
    }

    @Override
    public void close() {
        session.close();
    }

    @Override
    public String toString() {
        return "OnnxCrossEncoder[" + descriptor.id() + ", " + descriptor.maxTokens() + " tokens, batch " + batchSize + "]";
    }
}

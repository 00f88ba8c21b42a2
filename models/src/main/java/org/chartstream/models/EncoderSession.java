package org.chartstream.models;

import ai.onnxruntime.NodeInfo;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OnnxValue;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.ValueInfo;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.stream.IntStream;

/**
 * A BERT-style encoder graph open in ONNX Runtime, run the same way by the embedder and the cross-encoder: fed
 * {@code input_ids}, {@code attention_mask} and, when the graph has it, {@code token_type_ids}, each padded per batch;
 * one output read.
 *
 * <p>Work passed to {@link #whileOpen} runs concurrently (ONNX Runtime sessions accept concurrent runs);
 * {@link #close()} waits for it, then closes the session and what was opened with it (the model's tokenizer).
 */
public final class EncoderSession implements AutoCloseable {

    /** Makes the ONNX Runtime session in the given environment. */
    @FunctionalInterface
    public interface SessionFactory {
        OrtSession create(OrtEnvironment env) throws OrtException;
    }

    /** Work done while the session is open. */
    @FunctionalInterface
    public interface Work<T> {
        T run() throws OrtException;
    }

    /** One tokenised input of the graph: token ids and token type ids, special tokens included, already truncated. */
    public interface Input {
        long[] ids();

        long[] typeIds();

        default int length() {
            return ids().length;
        }
    }

    /** What a batch run hands to its reader: the output tensor's shape and values, valid only during the call. */
    @FunctionalInterface
    public interface OutputReader {
        void read(long[] shape, FloatBuffer values);
    }

    private static final String INPUT_IDS = "input_ids";
    private static final String ATTENTION_MASK = "attention_mask";
    private static final String TOKEN_TYPE_IDS = "token_type_ids";

    private final OrtEnvironment env;
    private final OrtSession session;
    private final String label;
    private final boolean feedTokenTypes;
    private final String outputName;
    private final ValueInfo outputInfo;
    private final Runnable closeAlso;
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private boolean closed;

    private EncoderSession(OrtEnvironment env, OrtSession session, String preferredOutput, String label, String graph,
            Runnable closeAlso) throws OrtException {
        this.env = env;
        this.session = session;
        this.label = label;
        this.closeAlso = closeAlso;
        Set<String> inputs = session.getInputNames();
        if (!inputs.contains(INPUT_IDS) || !inputs.contains(ATTENTION_MASK)) {
            throw new IllegalStateException(graph + " has inputs " + inputs + "; expected input_ids and attention_mask");
        }
        this.feedTokenTypes = inputs.contains(TOKEN_TYPE_IDS);
        Map<String, NodeInfo> outputs = session.getOutputInfo();
        this.outputName = outputs.containsKey(preferredOutput) ? preferredOutput : outputs.keySet().iterator().next();
        this.outputInfo = outputs.get(outputName).getInfo();
    }

    /**
     * Opens the session {@code factory} makes and checks that the graph takes encoder inputs. On any failure closes
     * the session and runs {@code closeAlso}, so a half-loaded model leaks nothing.
     *
     * @param preferredOutput the output to read when the graph has it; otherwise its first output
     * @param label           how run-time messages name the model, e.g. {@code model 'x'}
     * @param graph           how load-time messages name the graph, e.g. {@code ONNX model x.onnx of model 'x'}
     * @param closeAlso       closed with the session, after running work finishes
     */
    public static EncoderSession open(SessionFactory factory, String preferredOutput, String label, String graph,
            Runnable closeAlso) {
        OrtSession session = null;
        try {
            OrtEnvironment env = OrtEnvironment.getEnvironment();
            session = factory.create(env);
            return new EncoderSession(env, session, preferredOutput, label, graph, closeAlso);
        } catch (OrtException e) {
            OnnxSessions.closeQuietly(session);
            closeAlso.run();
            throw new IllegalStateException("cannot load " + graph + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            OnnxSessions.closeQuietly(session);
            closeAlso.run();
            throw e;
        }
    }

    /** Name of the output {@link #run} reads. */
    public String outputName() {
        return outputName;
    }

    /** Type and shape the graph declares for that output. */
    public ValueInfo outputInfo() {
        return outputInfo;
    }

    /**
     * Runs {@code work} unless the session is closed; {@link #close()} waits for it. ONNX Runtime failures come out as
     * {@link IllegalStateException}s naming the model.
     */
    public <T> T whileOpen(Work<T> work) {
        lock.readLock().lock();
        try {
            if (closed) {
                throw new IllegalStateException(label + " is closed");
            }
            return work.run();
        } catch (OrtException e) {
            throw new IllegalStateException("ONNX Runtime failed on " + label + ": " + e.getMessage(), e);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Indices of {@code inputs}, longest first and ties in input order: sub-batches of similar length pad little. */
    public static int[] longestFirst(Input[] inputs) {
        return IntStream.range(0, inputs.length).boxed()
                .sorted(Comparator.comparingInt((Integer i) -> -inputs[i].length()).thenComparingInt(i -> i))
                .mapToInt(Integer::intValue).toArray();
    }

    /**
     * Runs one batch, the {@code rows} of {@code inputs} in that order, each int64 [B, T] with T the longest row;
     * padding positions get {@code padId}, token type 0 and attention mask 0.
     */
    public void run(Input[] inputs, int[] rows, long padId, OutputReader reader) throws OrtException {
        int b = rows.length;
        int t = 0;
        for (int i : rows) {
            t = Math.max(t, inputs[i].length());
        }
        long[] shape = {b, t};
        LongBuffer idBuf = LongBuffer.allocate(b * t);
        LongBuffer maskBuf = LongBuffer.allocate(b * t);
        LongBuffer typeBuf = LongBuffer.allocate(b * t);
        for (int i : rows) {
            long[] row = inputs[i].ids();
            idBuf.put(row);
            typeBuf.put(inputs[i].typeIds());
            for (int k = 0; k < row.length; k++) {
                maskBuf.put(1L);
            }
            for (int k = row.length; k < t; k++) {
                idBuf.put(padId);
                typeBuf.put(0L);
                maskBuf.put(0L);
            }
        }
        idBuf.flip();
        maskBuf.flip();
        typeBuf.flip();
        try (OnnxTensor idsT = OnnxTensor.createTensor(env, idBuf, shape);
                OnnxTensor maskT = OnnxTensor.createTensor(env, maskBuf, shape);
                OnnxTensor typesT = feedTokenTypes ? OnnxTensor.createTensor(env, typeBuf, shape) : null) {
            Map<String, OnnxTensor> feed = new HashMap<>();
            feed.put(INPUT_IDS, idsT);
            feed.put(ATTENTION_MASK, maskT);
            if (typesT != null) {
                feed.put(TOKEN_TYPE_IDS, typesT);
            }
            try (OrtSession.Result result = session.run(feed, Set.of(outputName))) {
                OnnxValue value = result.get(0);
                if (!(value instanceof OnnxTensor tensor)) {
                    throw new IllegalStateException("output " + outputName + " of " + label + " is not a tensor");
                }
                reader.read(tensor.getInfo().getShape(), tensor.getFloatBuffer());
            }
        }
    }

    /** Closes the session and what was opened with it after running work finishes. Idempotent. */
    @Override
    public void close() {
        lock.writeLock().lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            OnnxSessions.closeQuietly(session);
            closeAlso.run();
        } finally {
            lock.writeLock().unlock();
        }
    }
}

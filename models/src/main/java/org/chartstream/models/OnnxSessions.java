package org.chartstream.models;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import java.nio.file.Path;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Creates and closes ONNX Runtime sessions the same way for every model this project runs. */
public final class OnnxSessions {
    private static final Logger LOG = LoggerFactory.getLogger(OnnxSessions.class);
    /** The environment variable ONNX Runtime reads to keep its telemetry client from starting. */
    public static final String TELEMETRY_SWITCH = "ORT_DISABLE_TELEMETRY";
    private static volatile boolean telemetryWarned;

    private OnnxSessions() {
    }

    /**
     * A session for the model in {@code file} when it is on disk, else from {@code bytes} (a classpath resource).
     * Sequential execution with {@code intraOpThreads} threads that do not spin while idle.
     */
    public static OrtSession create(OrtEnvironment env, int intraOpThreads, Path file, Supplier<byte[]> bytes) throws OrtException {
        OnnxRuntimeGuard.check();
        // ONNX Runtime 1.29 on Linux ships Microsoft's telemetry client: it resolved mobile.events.data.microsoft.com
        // in DemoPrivacyBoundaryIT even with telemetry switched off here; only the environment switch, read when the
        // native library starts, keeps it quiet (the launcher and the test runners set it)
        env.setTelemetry(false);
        if (!"1".equals(System.getenv(TELEMETRY_SWITCH)) && !telemetryWarned) {
            telemetryWarned = true;
            LOG.warn("{} is not set to 1: ONNX Runtime may contact Microsoft's telemetry service; start through ./chartstream"
                    + " or set it in the environment", TELEMETRY_SWITCH);
        }
        try (OrtSession.SessionOptions opts = new OrtSession.SessionOptions()) {
            opts.setIntraOpNumThreads(intraOpThreads);
            opts.setInterOpNumThreads(1);
            opts.setExecutionMode(OrtSession.SessionOptions.ExecutionMode.SEQUENTIAL);
            opts.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
            // idle ONNX threads must not spin: the broker, Streams and Lucene share these cores
            opts.addConfigEntry("session.intra_op.allow_spinning", "0");
            return file != null ? env.createSession(file.toString(), opts) : env.createSession(bytes.get(), opts);
        }
    }

    /** What a batch run hands to its reader: the output tensor's shape and values, valid only during the call. */
    @FunctionalInterface
    public interface OutputReader {
        void read(long[] shape, java.nio.FloatBuffer values);
    }

    /**
     * Runs one padded batch of BERT-style inputs: {@code input_ids}, {@code attention_mask} and (when the graph has
     * it) {@code token_type_ids}, each int64 [B, T] with T the longest row, padding masked out.
     */
    public static void runPadded(OrtEnvironment env, OrtSession session, String outputName, String modelLabel,
                                 java.util.List<long[]> ids, java.util.List<long[]> typeIds, long padId,
                                 boolean feedTokenTypes, OutputReader reader) throws OrtException {
        int b = ids.size();
        int t = 0;
        for (long[] row : ids) {
            t = Math.max(t, row.length);
        }
        long[] shape = {b, t};
        java.nio.LongBuffer idBuf = java.nio.LongBuffer.allocate(b * t);
        java.nio.LongBuffer maskBuf = java.nio.LongBuffer.allocate(b * t);
        java.nio.LongBuffer typeBuf = java.nio.LongBuffer.allocate(b * t);
        for (int r = 0; r < b; r++) {
            long[] row = ids.get(r);
            idBuf.put(row);
            typeBuf.put(typeIds.get(r));
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
        try (ai.onnxruntime.OnnxTensor idsT = ai.onnxruntime.OnnxTensor.createTensor(env, idBuf, shape);
                ai.onnxruntime.OnnxTensor maskT = ai.onnxruntime.OnnxTensor.createTensor(env, maskBuf, shape);
                ai.onnxruntime.OnnxTensor typesT = feedTokenTypes ? ai.onnxruntime.OnnxTensor.createTensor(env, typeBuf, shape) : null) {
            java.util.Map<String, ai.onnxruntime.OnnxTensor> feed = new java.util.HashMap<>();
            feed.put("input_ids", idsT);
            feed.put("attention_mask", maskT);
            if (typesT != null) {
                feed.put("token_type_ids", typesT);
            }
            try (OrtSession.Result result = session.run(feed, java.util.Set.of(outputName))) {
                ai.onnxruntime.OnnxValue value = result.get(0);
                if (!(value instanceof ai.onnxruntime.OnnxTensor tensor)) {
                    throw new IllegalStateException("output " + outputName + " of " + modelLabel + " is not a tensor");
                }
                reader.read(tensor.getInfo().getShape(), tensor.getFloatBuffer());
            }
        }
    }

    public static void closeQuietly(OrtSession s) {
        if (s != null) {
            try {
                s.close();
            } catch (OrtException e) {
                LOG.warn("closing ONNX session failed", e);
            }
        }
    }
}

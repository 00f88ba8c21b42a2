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

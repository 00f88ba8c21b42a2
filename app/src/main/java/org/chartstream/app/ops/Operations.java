package org.chartstream.app.ops;

import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.BindException;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.chartstream.query.admission.AdmissionControl;
import org.chartstream.runtime.PipelineRuntime;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.runtime.config.ConfigException;

/**
 * Metrics, health and readiness of one process. Started before the pipeline, so that {@code /health} answers and
 * {@code /ready} says "starting" during a long start; {@link #attach} connects the started runtime.
 */
public final class Operations implements AutoCloseable {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final PipelineMetrics metrics = new PipelineMetrics(registry);
    private final AtomicReference<PipelineRuntime> runtime = new AtomicReference<>();
    private final JvmGcMetrics gc = new JvmGcMetrics();
    private OpsHttpServer server;

    private Operations() {
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
    }

    /** Serves {@code ops.http.host}:{@code ops.http.port} unless the port is 0/off (then only metrics are kept). */
    public static Operations start(ChartstreamConfig config, Consumer<String> progress) {
        Operations ops = new Operations();
        int port = config.opsPort();
        if (port == 0) {
            return ops;
        }
        String host = config.string("ops.http.host");
        try {
            ops.server = OpsHttpServer.start(host, port, ops::scrape, ops::readiness);
        } catch (BindException e) {
            ops.close();
            throw new ConfigException("configuration 'ops.http.port' = '" + port + "': " + host + ":" + port
                    + " is in use (another chartstream run?); choose another port or 0 for none");
        } catch (IOException e) {
            ops.close();
            throw new ConfigException("cannot serve the operations endpoint on " + host + ":" + port + ": " + e.getMessage());
        }
        progress.accept("operations endpoint on http://" + host + ":" + ops.port() + " (/metrics, /health, /ready)");
        return ops;
    }

    public void attach(PipelineRuntime started) {
        metrics.bind(started);
        runtime.set(started);
    }

    /** The bound port, or 0 when no endpoint is served. */
    public int port() {
        return server == null ? 0 : server.port();
    }

    public String scrape() {
        metrics.refresh();
        return registry.scrape();
    }

    public Readiness.Report readiness() {
        PipelineRuntime r = runtime.get();
        if (r == null) {
            return Readiness.starting();
        }
        return r.role() == PipelineRuntime.Role.INGEST
                ? Readiness.evaluateIngest(new Readiness.IngestInputs(pipelineProblem(r), r.captureProblem(),
                        r.model() == null ? null : r.model().modelId()))
                : Readiness.evaluate(inputs(r));
    }

    private static String pipelineProblem(PipelineRuntime r) {
        try {
            r.checkHealthy();
            return null;
        } catch (IllegalStateException e) {
            return e.getMessage();
        }
    }

    static Readiness.Inputs inputs(PipelineRuntime r) {
        String storeProblem = null;
        Map<String, Long> active = new TreeMap<>();
        try {
            active.putAll(r.storeStatus().activeGenerations());
        } catch (RuntimeException e) {
            storeProblem = "the index cannot be read: " + e.getClass().getSimpleName();
        }
        String pipelineProblem = pipelineProblem(r);
        AdmissionControl admission = r.queryWiring().admission();
        return new Readiness.Inputs(storeProblem, pipelineProblem, active, r.model() == null ? null : r.model().modelId(),
                r.queryWiring().reranker() == null ? null : r.queryWiring().reranker().name(), admission.inFlight(), admission.limit());
    }

    @Override
    public void close() {
        if (server != null) {
            server.close();
        }
        metrics.close();
        gc.close();
        registry.close();
    }
}

package org.chartstream.app.ops;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * When the pipeline may take questions ({@code /ready}): the store answers reads, every registered table has an
 * active generation, the models are loaded, the pipeline's parts are running and admission has a free slot. An
 * ingest-only process ({@code run --role ingest}) takes no questions: it is ready when its embedding model is loaded,
 * change data capture has started reading every source and the ingest topology is running. Small pure functions over
 * what a probe read from the running pipeline.
 */
public final class Readiness {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One named check; {@code detail} says what was seen (counts and names only, never record data). */
    public record Check(String name, boolean ok, String detail) {
    }

    /**
     * What a probe read from a running pipeline.
     *
     * @param storeProblem      null when a read of the store succeeded, else why it failed
     * @param pipelineProblem   null when broker clients, CDC, topologies and materializer run, else the first failure
     * @param activeGenerations per registered table ({@code source:table}), the generation readers see (0: none)
     * @param embeddingModel    the loaded embedding model's id, or null
     * @param reranker          the loaded reranker's name, or null
     */
    public record Inputs(String storeProblem, String pipelineProblem, Map<String, Long> activeGenerations,
                         String embeddingModel, String reranker, int inFlight, int admissionLimit) {
    }

    /**
     * What a probe read from an ingest-only process.
     *
     * @param pipelineProblem null when CDC and the ingest topology have not failed, else the first failure
     * @param captureProblem  null when every source's Debezium task has started and the ingest topology is running,
     *                        else what is still starting
     * @param embeddingModel  the loaded embedding model's id, or null
     */
    public record IngestInputs(String pipelineProblem, String captureProblem, String embeddingModel) {
    }

    /** All checks and the verdict. */
    public record Report(List<Check> checks) {
        public boolean ready() {
            return checks.stream().allMatch(Check::ok);
        }

        public List<String> failing() {
            return checks.stream().filter(c -> !c.ok()).map(Check::name).toList();
        }

        public String json() {
            ObjectNode root = JSON.createObjectNode();
            root.put("ready", ready());
            ArrayNode failing = root.putArray("failing");
            failing().forEach(failing::add);
            ObjectNode all = root.putObject("checks");
            checks.forEach(c -> all.putObject(c.name()).put("ok", c.ok()).put("detail", c.detail()));
            return root.toString();
        }
    }

    private Readiness() {
    }

    /** The verdict before the pipeline has started: every check fails, saying so. */
    public static Report starting() {
        return new Report(List.of(new Check("store", false, "the pipeline is starting"),
                new Check("indexes", false, "the pipeline is starting"), new Check("models", false, "the pipeline is starting"),
                new Check("pipeline", false, "the pipeline is starting"), new Check("admission", false, "the pipeline is starting")));
    }

    public static Report evaluate(Inputs in) {
        return new Report(List.of(store(in.storeProblem()), indexes(in.activeGenerations()),
                models(in.embeddingModel(), in.reranker()), pipeline(in.pipelineProblem()),
                admission(in.inFlight(), in.admissionLimit())));
    }

    public static Report evaluateIngest(IngestInputs in) {
        return new Report(List.of(
                in.embeddingModel() == null ? new Check("models", false, "the embedding model is not loaded")
                        : new Check("models", true, "embedding " + in.embeddingModel()),
                in.pipelineProblem() == null ? new Check("pipeline", true, "CDC and the ingest topology have not failed")
                        : new Check("pipeline", false, in.pipelineProblem()),
                in.captureProblem() == null ? new Check("capture", true, "every source is captured and the ingest topology runs")
                        : new Check("capture", false, in.captureProblem())));
    }

    static Check store(String problem) {
        return problem == null ? new Check("store", true, "the index answers reads") : new Check("store", false, problem);
    }

    /** Every registered table needs an active generation: before its first publication a table cannot be searched. */
    static Check indexes(Map<String, Long> activeGenerations) {
        if (activeGenerations.isEmpty()) {
            return new Check("indexes", false, "no table is registered");
        }
        TreeSet<String> missing = new TreeSet<>();
        activeGenerations.forEach((table, generation) -> {
            if (generation == null || generation < 1) {
                missing.add(table);
            }
        });
        if (missing.isEmpty()) {
            return new Check("indexes", true, activeGenerations.size() + " tables have an active generation");
        }
        return new Check("indexes", false, "no active generation yet for " + String.join(", ", missing));
    }

    static Check models(String embeddingModel, String reranker) {
        if (embeddingModel == null || embeddingModel.isEmpty()) {
            return new Check("models", false, "the embedding model is not loaded");
        }
        if (reranker == null || reranker.isEmpty()) {
            return new Check("models", false, "the reranker is not loaded");
        }
        return new Check("models", true, "embedding " + embeddingModel + ", reranker " + reranker);
    }

    static Check pipeline(String problem) {
        return problem == null ? new Check("pipeline", true, "CDC, both topologies and the index materializer run")
                : new Check("pipeline", false, problem);
    }

    static Check admission(int inFlight, int limit) {
        boolean free = inFlight < limit;
        return new Check("admission", free, inFlight + " of " + limit + " requests in flight" + (free ? "" : ": new ones get busy replies"));
    }
}

package org.chartstream.replica;

import java.util.Map;

/**
 * What one index holds: vectors of one dimension from one embedding model. A query is only comparable with passages
 * embedded by the same model, and two 384-dimension models (all-MiniLM-L6-v2, e5-small-v2) are not told apart by
 * their dimension, so the model id is part of the contract: the materializer records it in every store commit,
 * refuses to start on a store committed for another model, and skips log events embedded by another model.
 *
 * @param dimension the vector dimension, 0 when any is accepted
 * @param modelId   the embedding model id, empty when any is accepted
 */
public record IndexContract(int dimension, String modelId) {
    /** The store checkpoint entry naming the model the committed index was embedded with. */
    public static final String MODEL_CHECKPOINT_KEY = "embedding.model";

    /** Any vectors (a materializer that checks nothing, e.g. in tests of other parts). */
    public static final IndexContract ANY = new IndexContract(0, "");

    public IndexContract {
        if (dimension < 0) {
            throw new IllegalArgumentException("dimension must not be negative, was " + dimension);
        }
        modelId = modelId == null ? "" : modelId.strip();
    }

    /**
     * Refuses a store whose last commit was made for another embedding model than this contract's: searching it with
     * this model's query vectors would rank noise, and materialising this model's events into it would mix two
     * models in one index. A store without a recorded model (new, or committed before the model was recorded) passes.
     *
     * @param checkpoint the store's committed checkpoint
     * @param where      what the index is, for the message
     * @throws IllegalStateException naming both models and what to do
     */
    public void requireSameModel(Map<String, String> checkpoint, String where) {
        String indexed = checkpoint.getOrDefault(MODEL_CHECKPOINT_KEY, "");
        if (modelId.isEmpty() || indexed.isEmpty() || indexed.equals(modelId)) {
            return;
        }
        throw new IllegalStateException(where + " holds vectors of embedding model '" + indexed
                + "' but embedding.model is '" + modelId + "'; one index holds one model's vectors, never a mix. Set"
                + " embedding.model=" + indexed + " to keep this index, or start '" + modelId + "' with an empty data.dir"
                + " (its snapshot embeds every row with the new model)");
    }

    /** Null when a chunk embedded by {@code chunkModelId} belongs in this index; else why not. */
    String modelProblem(String chunkModelId) {
        if (modelId.isEmpty() || modelId.equals(chunkModelId)) {
            return null;
        }
        return "embedded by model '" + chunkModelId + "', the store holds model '" + modelId + "'";
    }
}

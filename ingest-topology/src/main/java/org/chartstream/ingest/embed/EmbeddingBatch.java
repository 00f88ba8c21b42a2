package org.chartstream.ingest.embed;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.chartstream.schemas.ChunkRecord;
import org.chartstream.schemas.IndexEvent;

/**
 * Fills the vectors of pending index events, one text per model call (the model's vectors then do not depend on
 * what else is pending, and a slice can stop between any two chunks). The text of a chunk is the event's embed text
 * when its table's embedding policy names fields (every chunk of the row then shares that vector), else the chunk's
 * own text. A text the {@link VectorCache} holds is not embedded again.
 */
public final class EmbeddingBatch {
    private EmbeddingBatch() {
    }

    /**
     * The pending chunks of {@code event} whose text {@code cache} does not hold: the model calls it may need (fewer
     * when its chunks share a text).
     */
    public static int uncachedChunks(IndexEvent event, VectorCache cache) {
        int n = 0;
        for (ChunkRecord c : event.getChunks()) {
            if (c.getVector().isEmpty() && !cache.holds(textOf(event, c))) {
                n++;
            }
        }
        return n;
    }

    /** What the model reads for chunk {@code c} of {@code event}: the event's embed text, else the chunk's own. */
    static String textOf(IndexEvent event, ChunkRecord c) {
        return event.getEmbedText() != null ? event.getEmbedText() : c.getText();
    }

    public static int pendingChunks(IndexEvent event) {
        int n = 0;
        for (ChunkRecord c : event.getChunks()) {
            if (c.getVector().isEmpty()) {
                n++;
            }
        }
        return n;
    }

    /**
     * Fills vectors in append order, one text per model call, until {@code maxTexts} texts are embedded by the model or
     * {@code timeUp} says the slice's time is spent: an event may be left part-embedded (its remaining chunks keep
     * empty vectors for the next slice). A text in {@code cache} takes no model call and no part of the slice.
     *
     * @return how many chunks got a vector
     */
    public static int embed(List<IndexEvent> events, PassageEmbedder embedder, VectorCache cache, int maxTexts,
                            BooleanSupplier timeUp) {
        int modelCalls = 0;
        int filled = 0;
        for (IndexEvent e : events) {
            for (ChunkRecord c : e.getChunks()) {
                if (!c.getVector().isEmpty()) {
                    continue;
                }
                String text = textOf(e, c);
                float[] vector = cache.get(text);
                if (vector == null) {
                    if (modelCalls >= maxTexts || (modelCalls > 0 && timeUp.getAsBoolean())) {
                        return filled;
                    }
                    vector = embedder.embedPassages(List.of(text))[0];
                    modelCalls++;
                    cache.put(text, vector);
                }
                c.setVector(boxed(vector));
                c.setDimension(vector.length);
                filled++;
            }
        }
        return filled;
    }

    private static List<Float> boxed(float[] v) {
        List<Float> boxed = new ArrayList<>(v.length);
        for (float f : v) {
            boxed.add(f);
        }
        return boxed;
    }
}

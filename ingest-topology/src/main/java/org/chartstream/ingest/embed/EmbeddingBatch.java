package org.chartstream.ingest.embed;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.chartstream.schemas.ChunkRecord;
import org.chartstream.schemas.IndexEvent;

/**
 * Fills the vectors of pending index events, one text per model call (the model's vectors then do not depend on
 * what else is pending, and a slice can stop between any two chunks). Identical texts (a row written to the active
 * and to a staged generation) are embedded once.
 */
public final class EmbeddingBatch {
    private EmbeddingBatch() {
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
     * Fills vectors in append order, one text per model call, until {@code maxTexts} texts are embedded or
     * {@code timeUp} says the slice's time is spent: an event may be left part-embedded (its remaining chunks keep
     * empty vectors for the next slice). A text met again in the same slice reuses its vector.
     *
     * @return how many chunks got a vector
     */
    public static int embed(List<IndexEvent> events, PassageEmbedder embedder, int maxTexts, BooleanSupplier timeUp) {
        Map<String, List<Float>> embedded = new HashMap<>();
        int filled = 0;
        for (IndexEvent e : events) {
            for (ChunkRecord c : e.getChunks()) {
                if (!c.getVector().isEmpty()) {
                    continue;
                }
                List<Float> vector = embedded.get(c.getText());
                if (vector == null) {
                    if (embedded.size() >= maxTexts || (!embedded.isEmpty() && timeUp.getAsBoolean())) {
                        return filled;
                    }
                    vector = boxed(embedder.embedPassages(List.of(c.getText()))[0]);
                    embedded.put(c.getText(), vector);
                }
                c.setVector(new ArrayList<>(vector));
                c.setDimension(vector.size());
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

package org.chartstream.ingest.embed;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.chartstream.schemas.ChunkRecord;
import org.chartstream.schemas.IndexEvent;

/**
 * Fills the vectors of a batch of pending index events with one model call. Identical texts (a row written to
 * the active and to a staged generation) are embedded once.
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

    public static void embed(List<IndexEvent> events, PassageEmbedder embedder) {
        Map<String, Integer> textIndex = new LinkedHashMap<>();
        for (IndexEvent e : events) {
            for (ChunkRecord c : e.getChunks()) {
                if (c.getVector().isEmpty()) {
                    textIndex.putIfAbsent(c.getText(), textIndex.size());
                }
            }
        }
        if (textIndex.isEmpty()) {
            return;
        }
        float[][] vectors = embedder.embedPassages(new ArrayList<>(textIndex.keySet()));
        for (IndexEvent e : events) {
            for (ChunkRecord c : e.getChunks()) {
                if (c.getVector().isEmpty()) {
                    float[] v = vectors[textIndex.get(c.getText())];
                    List<Float> boxed = new ArrayList<>(v.length);
                    for (float f : v) {
                        boxed.add(f);
                    }
                    c.setVector(boxed);
                    c.setDimension(v.length);
                }
            }
        }
    }
}

package org.chartstream.replica;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.chartstream.core.store.HybridStore;
import org.chartstream.core.store.PatientLabel;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.core.store.TableRef;
import org.chartstream.schemas.ChunkRecord;
import org.chartstream.schemas.GenerationState;
import org.chartstream.schemas.IndexEvent;

/**
 * Applies index-log events to a store. A generation is published once its marker has been read on every
 * partition of the log (each partition carries its share of the generation's rows before the marker). The
 * markers still waiting for other partitions are part of the store checkpoint, so a restart does not forget them.
 */
public final class IndexLogApplier {
    private static final String MARKER_KEY = "marker.";
    private final HybridStore store;
    private final int partitionCount;
    private final Map<String, Set<Integer>> pendingMarkers = new HashMap<>();

    public IndexLogApplier(HybridStore store, int partitionCount, Map<String, String> checkpoint) {
        this.store = store;
        this.partitionCount = partitionCount;
        checkpoint.forEach((k, v) -> {
            if (k.startsWith(MARKER_KEY) && !v.isEmpty()) {
                Set<Integer> seen = new TreeSet<>();
                for (String p : v.split(",")) {
                    seen.add(Integer.parseInt(p));
                }
                pendingMarkers.put(k.substring(MARKER_KEY.length()), seen);
            }
        });
    }

    public void apply(IndexEvent e, int partition) {
        if (e == null) {
            return;
        }
        switch (e.getKind()) {
            case UPSERT_ROW -> store.upsertRow(new RowRef(e.getSourceId(), e.getTableName(), e.getRowKey()),
                    e.getGeneration(), e.getChunks().stream().map(IndexLogApplier::toStored).toList());
            case DELETE_ROW -> store.deleteRow(new RowRef(e.getSourceId(), e.getTableName(), e.getRowKey()));
            case MARKER -> {
                if (e.getMarker() == null || e.getMarker().getState() != GenerationState.PUBLISHED) {
                    return;
                }
                String id = new TableRef(e.getSourceId(), e.getTableName()).id() + ":" + e.getGeneration(); // a checkpoint key: form kept
                Set<Integer> seen = pendingMarkers.computeIfAbsent(id, k -> new TreeSet<>());
                seen.add(partition);
                if (seen.size() >= partitionCount) {
                    pendingMarkers.remove(id);
                    store.publish(new TableRef(e.getSourceId(), e.getTableName()), e.getGeneration());
                }
            }
            default -> throw new IllegalStateException("unknown index event kind " + e.getKind());
        }
    }

    /** The checkpoint entries describing markers still waiting for other partitions. */
    public Map<String, String> pendingMarkerCheckpoint() {
        Map<String, String> out = new HashMap<>();
        pendingMarkers.forEach((k, v) -> out.put(MARKER_KEY + k, v.stream().map(String::valueOf).collect(Collectors.joining(","))));
        return out;
    }

    static StoredChunk toStored(ChunkRecord c) {
        float[] v = new float[c.getVector().size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = c.getVector().get(i);
        }
        return new StoredChunk(c.getChunkId(), new RowRef(c.getSourceId(), c.getTableName(), c.getRowKey()),
                c.getChunkIndex(), c.getChunkCount(), c.getGeneration(), c.getText(), v, c.getPatientKey(),
                PatientLabel.of(c.getPatientNumber(), c.getPatientName(), c.getPatientBirthYear()), c.getSourcePosition(),
                c.getCommitTsMs(), c.getModelId(), c.getFields());
    }
}

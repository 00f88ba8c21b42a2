package org.chartstream.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.chartstream.core.store.HybridStore;
import org.chartstream.core.store.TableRef;
import org.chartstream.schemas.IndexPosition;
import org.chartstream.schemas.ReplicaStatus;
import org.chartstream.schemas.ReplicaTable;

/**
 * What the readers of one query process's store see: per table ({@code source:table}) the active generation and its
 * rows, and per index-log partition the offset the store has committed up to (with the log's end offset, the
 * store's lag). Published on {@code chartstream.store.status} as a {@link ReplicaStatus} ({@link StoreStatusPublisher}),
 * so that {@code chartstream status} reads it wherever it runs.
 *
 * @param instance the query process (host and run directory)
 */
public record StoreStatus(String instance, long updatedMs, String indexTopic, Map<String, Long> activeGenerations,
                          Map<String, Long> rows, Map<Integer, Long> committedPositions) {

    public StoreStatus {
        activeGenerations = Map.copyOf(activeGenerations);
        rows = Map.copyOf(rows);
        committedPositions = Map.copyOf(committedPositions);
    }

    /** What {@code store}'s readers see now of {@code tables}, with the index-log {@code positions} it has committed. */
    public static StoreStatus now(String instance, List<TableRef> tables, HybridStore store, String indexTopic,
                                  Map<Integer, Long> positions) {
        Map<String, Long> active = new TreeMap<>();
        Map<String, Long> rows = new TreeMap<>();
        Map<TableRef, Long> generations = store.activeGenerations();
        for (TableRef table : tables) {
            active.put(table.id(), generations.getOrDefault(table, 0L));
            rows.put(table.id(), store.countRows(table));
        }
        return new StoreStatus(instance, System.currentTimeMillis(), indexTopic, active, rows, positions);
    }

    /** Whether {@code other} shows readers the same generations, rows and index-log positions. */
    public boolean sameViewAs(StoreStatus other) {
        return other != null && instance.equals(other.instance) && indexTopic.equals(other.indexTopic)
                && activeGenerations.equals(other.activeGenerations) && rows.equals(other.rows)
                && committedPositions.equals(other.committedPositions);
    }

    /** The wire record. */
    public ReplicaStatus toRecord() {
        List<ReplicaTable> tables = new ArrayList<>();
        new TreeMap<>(activeGenerations).forEach((key, generation) -> {
            TableRef table = TableRef.parse(key);
            tables.add(ReplicaTable.newBuilder().setSourceId(table.sourceId()).setTableName(table.table())
                    .setActiveGeneration(generation).setRows(rows.getOrDefault(key, 0L)).build());
        });
        List<IndexPosition> positions = new ArrayList<>();
        new TreeMap<>(committedPositions).forEach((partition, offset) ->
                positions.add(IndexPosition.newBuilder().setPartition(partition).setOffset(offset).build()));
        return ReplicaStatus.newBuilder().setInstance(instance).setIndexTopic(indexTopic).setTables(tables)
                .setIndexPositions(positions).setUpdatedMs(updatedMs).build();
    }

    public static StoreStatus of(ReplicaStatus record) {
        Map<String, Long> active = new TreeMap<>();
        Map<String, Long> rows = new TreeMap<>();
        for (ReplicaTable t : record.getTables()) {
            String key = new TableRef(t.getSourceId(), t.getTableName()).id();
            active.put(key, t.getActiveGeneration());
            rows.put(key, t.getRows());
        }
        Map<Integer, Long> positions = new TreeMap<>();
        record.getIndexPositions().forEach(p -> positions.put(p.getPartition(), p.getOffset()));
        return new StoreStatus(record.getInstance(), record.getUpdatedMs(), record.getIndexTopic(), active, rows, positions);
    }
}

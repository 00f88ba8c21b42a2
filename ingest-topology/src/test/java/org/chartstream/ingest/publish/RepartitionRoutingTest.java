package org.chartstream.ingest.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.chartstream.ingest.chunk.RowChunks;
import org.chartstream.ingest.embed.PassageEmbedder;
import org.chartstream.schemas.IndexEvent;
import org.junit.jupiter.api.Test;

/**
 * The two hops of an index event: planner → repartition topic ({@link IndexEventPartitioner}) and embedding task p →
 * index log ({@link OwnPartition}). A row's events (upserts to either generation, its delete) meet on one partition
 * of both topics; a marker reaches every repartition partition, and each embedding task writes it to its own
 * index-log partition only.
 */
class RepartitionRoutingTest {
    private static final int PARTITIONS = 3;
    private static final PassageEmbedder MODEL = new NoEmbedding("routing embeds nothing");
    private final IndexEvents events = new IndexEvents(MODEL);
    private final IndexEventPartitioner byKey = new IndexEventPartitioner();

    private IndexEvent upsert(String rowKey, long generation) {
        return events.upsert(new RowChunks("ehr", "notes", rowKey, List.of("record: notes\ntext of " + rowKey), "MRN-1", "lsn:1", 1), generation);
    }

    private Set<Integer> route(IndexEvent event) {
        return byKey.partitions("chartstream.ingest.embed", IndexEvents.key(event), event, PARTITIONS).orElseThrow();
    }

    @Test
    void rowsSpreadOverEveryPartitionAndEachRowsUpsertsAndDeleteMeetOnOne() {
        Set<Integer> used = new HashSet<>();
        for (int i = 0; i < 30; i++) {
            String row = "n" + i;
            Set<Integer> active = route(upsert(row, 1));
            assertThat(active).hasSize(1);
            assertThat(route(upsert(row, 2))).as("the staged generation's copy of the row").isEqualTo(active);
            assertThat(route(IndexEvents.deleteRow("ehr", "notes", row))).as("the row's delete").isEqualTo(active);
            used.addAll(active);
        }
        assertThat(used).containsExactlyInAnyOrder(0, 1, 2);
    }

    @Test
    void aPrimaryKeyChangeRoutesTheOldKeysDeleteAndTheNewKeysUpsertEachByItsOwnKey() {
        // Debezium writes a key change as a delete of the old key and a create of the new one
        int oldKeyPartition = route(upsert("n1", 1)).iterator().next();
        String newKey = IntStream.range(2, 100).mapToObj(i -> "n" + i)
                .filter(k -> route(upsert(k, 1)).iterator().next() != oldKeyPartition).findFirst().orElseThrow();

        assertThat(route(IndexEvents.deleteRow("ehr", "notes", "n1"))).containsExactly(oldKeyPartition);
        assertThat(route(upsert(newKey, 1))).doesNotContain(oldKeyPartition);
    }

    @Test
    void aMarkerGoesToEveryRepartitionPartitionAndEachEmbeddingTaskWritesItToItsOwnIndexPartitionOnly() {
        IndexEvent marker = events.published("ehr", "notes", 2, 30, 1);
        assertThat(route(marker)).containsExactlyInAnyOrder(0, 1, 2);
        for (int p = 0; p < PARTITIONS; p++) {
            assertThat(new OwnPartition(p, PARTITIONS).partitions("chartstream.index",
                    IndexEvents.key(marker), marker, PARTITIONS).orElseThrow()).containsExactly(p);
        }
    }

    @Test
    void anEmbeddingTasksRowsLandOnTheIndexPartitionTheirKeyHashesTo() {
        for (int i = 0; i < 30; i++) {
            IndexEvent row = upsert("n" + i, 1);
            int embedPartition = route(row).iterator().next();
            assertThat(byKey.partitions("chartstream.index", IndexEvents.key(row), row, PARTITIONS).orElseThrow())
                    .containsExactly(embedPartition);
            assertThat(new OwnPartition(embedPartition, PARTITIONS).partitions("chartstream.index", IndexEvents.key(row), row, PARTITIONS)
                    .orElseThrow()).containsExactly(embedPartition);
        }
    }

    @Test
    void anIndexLogWithAnotherPartitionCountThanTheRepartitionTopicIsRefused() {
        IndexEvent marker = events.published("ehr", "notes", 2, 30, 1);
        assertThatThrownBy(() -> new OwnPartition(0, 2).partitions("chartstream.index", "ehr:notes", marker, 3))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("ingest.partitions")
                .hasMessageContaining("has 3 partition(s)");
    }
}

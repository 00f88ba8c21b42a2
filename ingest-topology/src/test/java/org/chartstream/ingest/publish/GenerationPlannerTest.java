package org.chartstream.ingest.publish;

import static org.assertj.core.api.Assertions.assertThat;

import org.chartstream.schemas.RowOp;
import org.chartstream.schemas.SnapshotMarker;
import org.junit.jupiter.api.Test;

class GenerationPlannerTest {

    @Test
    void aSnapshotStagesANewGenerationAndPublishesItAfterTheTablesLastRow() {
        GenerationPlanner.Plan first = GenerationPlanner.plan(TableGenerations.NONE, RowOp.SNAPSHOT, SnapshotMarker.FIRST);
        assertThat(first.targets()).containsExactly(1L);
        assertThat(first.publish()).isZero();
        assertThat(first.next().active()).isZero();

        GenerationPlanner.Plan middle = GenerationPlanner.plan(first.next(), RowOp.SNAPSHOT, SnapshotMarker.MIDDLE);
        assertThat(middle.targets()).containsExactly(1L);
        assertThat(middle.next().stagedRows()).isEqualTo(2);

        GenerationPlanner.Plan last = GenerationPlanner.plan(middle.next(), RowOp.SNAPSHOT, SnapshotMarker.LAST_IN_TABLE);
        assertThat(last.targets()).containsExactly(1L);
        assertThat(last.publish()).isEqualTo(1L);
        assertThat(last.next()).isEqualTo(new TableGenerations(1, 0, 1, 0));
    }

    @Test
    void aResnapshotBuildsTheNextGenerationWhileStreamingWritesGoToBoth() {
        TableGenerations active = new TableGenerations(1, 0, 1, 0);
        GenerationPlanner.Plan resnap = GenerationPlanner.plan(active, RowOp.SNAPSHOT, SnapshotMarker.FIRST);
        assertThat(resnap.targets()).containsExactly(2L);

        GenerationPlanner.Plan update = GenerationPlanner.plan(resnap.next(), RowOp.UPDATE, SnapshotMarker.NONE);
        assertThat(update.targets()).containsExactly(1L, 2L);
        assertThat(update.publish()).isZero();
    }

    @Test
    void streamingChangesGoToTheActiveGenerationAndDeletesToNone() {
        TableGenerations active = new TableGenerations(3, 0, 3, 0);
        assertThat(GenerationPlanner.plan(active, RowOp.CREATE, SnapshotMarker.NONE).targets()).containsExactly(3L);
        assertThat(GenerationPlanner.plan(active, RowOp.DELETE, SnapshotMarker.NONE).targets()).isEmpty();
    }

    @Test
    void theFirstChangeOfATableThatHadNoSnapshotOpensAndPublishesGenerationOne() {
        GenerationPlanner.Plan plan = GenerationPlanner.plan(TableGenerations.NONE, RowOp.CREATE, SnapshotMarker.NONE);
        assertThat(plan.targets()).containsExactly(1L);
        assertThat(plan.publish()).isEqualTo(1L);
        assertThat(TableGenerations.decode(plan.next().encode())).isEqualTo(plan.next());
    }

    @Test
    void aReindexOpensTheNextUnusedGenerationOnlyWhenOneIsActiveAndNoneIsBeingBuilt() {
        assertThat(GenerationPlanner.startReindex(new TableGenerations(3, 0, 5, 0))).contains(new TableGenerations(3, 6, 6, 0));
        assertThat(GenerationPlanner.startReindex(TableGenerations.NONE)).isEmpty();
        assertThat(GenerationPlanner.startReindex(new TableGenerations(3, 4, 4, 10))).isEmpty();
        assertThat(GenerationPlanner.published(new TableGenerations(3, 6, 6, 0))).isEqualTo(new TableGenerations(6, 0, 6, 0));
    }

    @Test
    void aSingleRowFirstTableIsPublishedWhenDebeziumReportsItsScanAfterTheRow() {
        // Debezium marks the only row of the snapshot's first table "first"; nothing marks the table's end
        GenerationPlanner.Plan row = GenerationPlanner.plan(TableGenerations.NONE, RowOp.SNAPSHOT, SnapshotMarker.FIRST);
        assertThat(row.publish()).isZero();

        GenerationPlanner.Plan scan = GenerationPlanner.scanCompleted(row.next(), 1);
        assertThat(scan.targets()).isEmpty();
        assertThat(scan.publish()).isEqualTo(1L);
        assertThat(scan.next()).isEqualTo(new TableGenerations(1, 0, 1, 0, 0));
    }

    @Test
    void aScanReportReadBeforeTheRowsPublishesWithTheRowThatReachesItsCount() {
        GenerationPlanner.Plan scan = GenerationPlanner.scanCompleted(TableGenerations.NONE, 2);
        assertThat(scan.publish()).isZero();
        assertThat(scan.next().scannedRows()).isEqualTo(2);

        GenerationPlanner.Plan first = GenerationPlanner.plan(scan.next(), RowOp.SNAPSHOT, SnapshotMarker.FIRST);
        assertThat(first.publish()).isZero();
        GenerationPlanner.Plan second = GenerationPlanner.plan(first.next(), RowOp.SNAPSHOT, SnapshotMarker.MIDDLE);
        assertThat(second.publish()).isEqualTo(1L);
        assertThat(second.next()).isEqualTo(new TableGenerations(1, 0, 1, 0, 0));
    }

    @Test
    void aSnapshotThatStartsOverCountsItsRowsAgainAndIsPublishedOnlyWithItsLastRow() {
        // a kill cut the first read of a three-row table short after two rows; Debezium reads all three again
        TableGenerations cutShort = GenerationPlanner.plan(GenerationPlanner.plan(TableGenerations.NONE, RowOp.SNAPSHOT,
                SnapshotMarker.FIRST).next(), RowOp.SNAPSHOT, SnapshotMarker.MIDDLE).next();
        TableGenerations scanned = GenerationPlanner.scanCompleted(cutShort, 3).next(); // the new read's notice, read early
        assertThat(scanned.stagedRows()).isEqualTo(2);

        GenerationPlanner.Plan again = GenerationPlanner.plan(scanned, RowOp.SNAPSHOT, SnapshotMarker.FIRST);
        assertThat(again.targets()).containsExactly(1L);
        assertThat(again.next().stagedRows()).isEqualTo(1);
        assertThat(again.publish()).as("three rows counted, but one of them twice").isZero();
        GenerationPlanner.Plan second = GenerationPlanner.plan(again.next(), RowOp.SNAPSHOT, SnapshotMarker.MIDDLE);
        assertThat(second.publish()).isZero();
        GenerationPlanner.Plan last = GenerationPlanner.plan(second.next(), RowOp.SNAPSHOT, SnapshotMarker.MIDDLE);
        assertThat(last.publish()).isEqualTo(1L);
        assertThat(GenerationPlanner.stagedRowsWith(second.next(), SnapshotMarker.MIDDLE)).isEqualTo(3);

        // a later table's first row starts over the same way
        assertThat(GenerationPlanner.stagedRowsWith(new TableGenerations(0, 4, 4, 7), SnapshotMarker.FIRST_IN_TABLE)).isEqualTo(1);
    }

    @Test
    void aScanReportAfterThePublicationChangesNothingAndFewerRowsThanScannedWaitForTheRest() {
        TableGenerations published = new TableGenerations(1, 0, 1, 0);
        assertThat(GenerationPlanner.scanCompleted(published, 3))
                .isEqualTo(new GenerationPlanner.Plan(java.util.List.of(), 0, published));
        assertThat(GenerationPlanner.scanCompleted(published, 0).next()).isEqualTo(published);
        TableGenerations staged = new TableGenerations(0, 1, 1, 2);
        assertThat(GenerationPlanner.scanCompleted(staged, 3).publish()).isZero();
    }

    @Test
    void aTableTheSnapshotFoundEmptyGetsAnEmptyGenerationThatItsFirstChangeThenJoins() {
        GenerationPlanner.Plan empty = GenerationPlanner.scanCompleted(TableGenerations.NONE, 0);
        assertThat(empty.targets()).isEmpty();
        assertThat(empty.publish()).isEqualTo(1L);
        assertThat(empty.next()).isEqualTo(new TableGenerations(1, 0, 1, 0));

        GenerationPlanner.Plan insert = GenerationPlanner.plan(empty.next(), RowOp.CREATE, SnapshotMarker.NONE);
        assertThat(insert.targets()).containsExactly(1L);
        assertThat(insert.publish()).isZero();
    }

    @Test
    void stateWrittenBeforeTheScanCountExistedStillDecodes() {
        assertThat(TableGenerations.decode("2,3,3,7")).isEqualTo(new TableGenerations(2, 3, 3, 7, 0));
        TableGenerations withCount = new TableGenerations(0, 1, 1, 4, 9);
        assertThat(TableGenerations.decode(withCount.encode())).isEqualTo(withCount);
    }

    @Test
    void aTruncatePublishesAnEmptyGenerationWithTheNextUnusedNumberAtOnce() {
        GenerationPlanner.Plan plan = GenerationPlanner.truncated(new TableGenerations(3, 0, 3, 0));
        assertThat(plan.targets()).isEmpty();
        assertThat(plan.publish()).isEqualTo(4L);
        assertThat(plan.next()).isEqualTo(new TableGenerations(4, 0, 4, 0));

        // rows inserted after the truncate go to the empty generation, which is now the active one
        GenerationPlanner.Plan insert = GenerationPlanner.plan(plan.next(), RowOp.CREATE, SnapshotMarker.NONE);
        assertThat(insert.targets()).containsExactly(4L);
        assertThat(insert.publish()).isZero();
    }

    @Test
    void aTruncateDuringAReindexAbandonsTheStagedGenerationAndNeverReusesItsNumber() {
        TableGenerations reindexing = GenerationPlanner.startReindex(new TableGenerations(1, 0, 1, 0)).orElseThrow();
        GenerationPlanner.Plan plan = GenerationPlanner.truncated(reindexing);
        assertThat(plan.publish()).isEqualTo(3L);
        assertThat(plan.next()).isEqualTo(new TableGenerations(3, 0, 3, 0));
    }

    @Test
    void aTruncateOfATableWithNothingIndexedYetStillPublishesAnEmptyGeneration() {
        GenerationPlanner.Plan plan = GenerationPlanner.truncated(TableGenerations.NONE);
        assertThat(plan.publish()).isEqualTo(1L);
        assertThat(plan.next().active()).isEqualTo(1L);
    }
}

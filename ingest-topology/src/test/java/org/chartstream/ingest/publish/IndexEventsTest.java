package org.chartstream.ingest.publish;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.ingest.chunk.RowChunks;
import org.chartstream.ingest.embed.PassageEmbedder;
import org.chartstream.schemas.ChunkRecord;
import org.chartstream.schemas.GenerationState;
import org.chartstream.schemas.IndexEvent;
import org.chartstream.schemas.IndexEventKind;
import org.junit.jupiter.api.Test;

class IndexEventsTest {
    private static final PassageEmbedder MODEL = new NoEmbedding("building events embeds nothing");
    private final IndexEvents events = new IndexEvents(MODEL);

    @Test
    void anUpsertCarriesEveryChunkOfTheRowForOneGenerationWithTheStoresChunkIdsAndNoVectorsYet() {
        RowChunks row = new RowChunks("ehr", "notes", "n1", List.of("record: notes\nfirst", "record: notes\nsecond"), "MRN-1",
                "lsn:10", 1_700_000_000_000L);

        IndexEvent upsert = events.upsert(row, 2);

        assertThat(upsert.getKind()).isEqualTo(IndexEventKind.UPSERT_ROW);
        assertThat(upsert.getGeneration()).isEqualTo(2);
        assertThat(upsert.getChunks()).extracting(ChunkRecord::getChunkId).containsExactly(
                StoredChunk.chunkId(new RowRef("ehr", "notes", "n1"), 0, 2), StoredChunk.chunkId(new RowRef("ehr", "notes", "n1"), 1, 2));
        assertThat(upsert.getChunks()).allSatisfy(c -> {
            assertThat(c.getChunkCount()).isEqualTo(2);
            assertThat(c.getVector()).isEmpty();
            assertThat(c.getPatientKey()).isEqualTo("MRN-1");
            assertThat(c.getSourcePosition()).isEqualTo("lsn:10");
            assertThat(c.getModelId()).isEqualTo("test-model");
            assertThat(c.getDimension()).isEqualTo(3);
        });
        assertThat(upsert.getChunks()).extracting(ChunkRecord::getText).containsExactly("record: notes\nfirst", "record: notes\nsecond");
    }

    @Test
    void aMarkerPublishesTheGenerationWithItsRowCountUnderTheTableKeyWhileRowsGoUnderTheRowKey() {
        IndexEvent marker = events.published("ehr", "notes", 3, 42, 1_700_000_000_500L);

        assertThat(marker.getKind()).isEqualTo(IndexEventKind.MARKER);
        assertThat(marker.getMarker().getState()).isEqualTo(GenerationState.PUBLISHED);
        assertThat(marker.getMarker().getGeneration()).isEqualTo(3);
        assertThat(marker.getMarker().getRows()).isEqualTo(42);
        assertThat(marker.getMarker().getModelId()).isEqualTo("test-model");
        assertThat(IndexEvents.key(marker)).isEqualTo("ehr:notes");
        assertThat(IndexEvents.key(IndexEvents.deleteRow("ehr", "notes", "n1"))).isEqualTo("ehr:notes:n1");
    }

    @Test
    void theRowsFieldsTravelOnItsFirstChunkOnly() {
        RowChunks row = new RowChunks("ehr", "medications", "m1", List.of("record: medications\ndrug: Lisinopril", "record: medications\nroute: PO"),
                "MRN-1", null, "lsn:10", 1L, Map.of("drug", "Lisinopril", "route", "PO"));

        IndexEvent upsert = events.upsert(row, 1);

        assertThat(upsert.getChunks().get(0).getFields()).containsExactlyInAnyOrderEntriesOf(Map.of("drug", "Lisinopril", "route", "PO"));
        assertThat(upsert.getChunks().get(1).getFields()).isEmpty();
    }

    @Test
    void theRecordSizeBoundCountsTheRowsFields() {
        String value = "x".repeat(5_000);
        RowChunks withFields = new RowChunks("ehr", "notes", "n1", List.of("record: notes\nnote: short"), null, null, "lsn:1", 1L,
                Map.of("note", value));
        RowChunks without = new RowChunks("ehr", "notes", "n1", List.of("record: notes\nnote: short"), null, "lsn:1", 1L);
        IndexEvent upsert = events.upsert(withFields, 1);
        long serialized = org.chartstream.schemas.serde.AvroSerde.of(IndexEvent.class).serialize("t", upsert).length;

        assertThat(IndexRecordSize.upperBound(withFields, 384)).isGreaterThanOrEqualTo(serialized)
                .isGreaterThanOrEqualTo(IndexRecordSize.upperBound(without, 384) + value.length());
    }

    @Test
    void anUpsertCarriesTheRowsEmbedTextAndItsSizeBoundCountsIt() {
        String embed = "lab test: " + "Potassium ".repeat(500);
        RowChunks row = new RowChunks("ehr", "results", "r1", List.of("record: results\nlab test: Potassium\nvalue: 4.1"), null,
                null, "lsn:1", 1L, Map.of("value", "4.1"), embed);
        RowChunks plain = new RowChunks("ehr", "results", "r1", List.of("record: results\nlab test: Potassium\nvalue: 4.1"), null,
                null, "lsn:1", 1L, Map.of("value", "4.1"));

        IndexEvent upsert = events.upsert(row, 1);
        long serialized = org.chartstream.schemas.serde.AvroSerde.of(IndexEvent.class).serialize("t", upsert).length;

        assertThat(upsert.getEmbedText()).isEqualTo(embed);
        assertThat(events.upsert(plain, 1).getEmbedText()).isNull();
        assertThat(IndexRecordSize.upperBound(row, 384)).isGreaterThanOrEqualTo(serialized)
                .isGreaterThanOrEqualTo(IndexRecordSize.upperBound(plain, 384) + embed.length());
    }
}

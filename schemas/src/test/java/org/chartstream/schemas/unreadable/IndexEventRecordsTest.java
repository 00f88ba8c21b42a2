package org.chartstream.schemas.unreadable;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.chartstream.schemas.IndexEvent;
import org.chartstream.schemas.IndexEventKind;
import org.chartstream.schemas.serde.AvroSerde;
import org.junit.jupiter.api.Test;

class IndexEventRecordsTest {
    private static final AvroSerde<IndexEvent> EVENTS = AvroSerde.of(IndexEvent.class);

    private static byte[] delete(String rowKey) {
        return EVENTS.serialize("", IndexEvent.newBuilder().setKind(IndexEventKind.DELETE_ROW).setSourceId("ehr").setTableName("notes")
                .setRowKey(rowKey).setGeneration(1).setChunks(List.of()).setMarker(null).build());
    }

    @Test
    void bytesThatAreNoIndexEventAndRowEventsWithoutARowKeyAreUnreadableForEveryReader() {
        assertThat(IndexEventRecords.read("garbage".getBytes(StandardCharsets.UTF_8), e -> null).problem())
                .startsWith("not an IndexEvent (Avro single-object encoding): ");
        assertThat(IndexEventRecords.read(delete(""), e -> null).problem()).isEqualTo("DELETE_ROW event without a row_key");
        assertThat(IndexEventRecords.read(delete(null), e -> "never asked").problem()).isEqualTo("DELETE_ROW event without a row_key");
    }

    @Test
    void aTombstoneIsNothingToDoAndAReadersOwnCheckDecidesTheRest() {
        IndexEventRecords.Read tombstone = IndexEventRecords.read(null, e -> "never asked");
        assertThat(tombstone.readable()).isTrue();
        assertThat(tombstone.event()).isNull();
        assertThat(IndexEventRecords.read(delete("r1"), e -> null).event().getRowKey()).isEqualTo("r1");
        assertThat(IndexEventRecords.read(delete("r1"), e -> "the reader's reason").problem()).isEqualTo("the reader's reason");
    }
}

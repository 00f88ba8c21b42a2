package org.chartstream.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.GenericRecordBuilder;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.specific.SpecificRecord;
import org.chartstream.schemas.serde.AvroSerde;
import org.chartstream.schemas.serde.KnownSchemas;
import org.junit.jupiter.api.Test;

/**
 * The status, progress and control payloads of the ingest and the store ({@code chartstream.ingest.status},
 * {@code chartstream.ingest.progress}, {@code chartstream.ingest.control}, {@code chartstream.store.status}): they
 * round-trip, a later writer's added field or command does not break this reader, and the hand-written JSON that
 * earlier versions put on these topics is not mistaken for a record.
 */
class IngestStatusSchemasTest {

    @Test
    void everyStatusProgressAndControlPayloadRoundTrips() {
        IngestTableStatus status = IngestTableStatus.newBuilder().setSourceId("ehr").setTableName("clinical_notes")
                .setActiveGeneration(2).setStagedGeneration(3).setRows(1340).setChunks(1500).setModelId("m")
                .setSourcePosition("lsn:42").setCommitTsMs(5).setUpdatedMs(6).setRowsSkippedEmpty(1)
                .setUnreviewedColumns(List.of("triage")).setStagedRows(700).setDropped(true).setUnresolvedCodes(12).build();
        EmbeddingProgress progress = EmbeddingProgress.newBuilder().setPartition(1).setInstance("host:/run").setChunks(7)
                .setEvents(8).setUpdatedMs(9).setTables(java.util.Map.of("ehr:clinical_notes",
                        TableEmbedding.newBuilder().setGeneration(3).setChunks(7).build())).build();
        IngestControl control = IngestControl.newBuilder().setCommand(IngestCommand.REINDEX).setSourceId("ehr")
                .setTableName("clinical_notes").setRequestedMs(10).build();
        ReplicaStatus replica = ReplicaStatus.newBuilder().setInstance("host:/run").setIndexTopic(Topics.INDEX)
                .setTables(List.of(ReplicaTable.newBuilder().setSourceId("ehr").setTableName("clinical_notes")
                        .setActiveGeneration(2).setRows(1340).build()))
                .setIndexPositions(List.of(IndexPosition.newBuilder().setPartition(0).setOffset(99).build())).setUpdatedMs(11).build();

        assertThat(roundTrip(IngestTableStatus.class, status)).isEqualTo(status);
        assertThat(roundTrip(EmbeddingProgress.class, progress)).isEqualTo(progress);
        assertThat(roundTrip(IngestControl.class, control)).isEqualTo(control);
        assertThat(roundTrip(ReplicaStatus.class, replica)).isEqualTo(replica);
    }

    @Test
    void aStatusWrittenWithoutTheCountersReadsThemAsNone() throws Exception {
        Schema current = IngestTableStatus.getClassSchema();
        Schema first = Schema.createRecord(current.getName(), current.getDoc(), current.getNamespace(), false,
                current.getFields().stream().filter(f -> !List.of("rows_skipped_empty", "unreviewed_columns", "staged_rows", "dropped",
                                "unresolved_codes").contains(f.name()))
                        .map(f -> new Schema.Field(f, f.schema())).toList());
        assertThat(first.getField("rows_skipped_empty")).isNull();
        assertThat(first.getField("unreviewed_columns")).isNull();
        GenericRecord written = new GenericRecordBuilder(first).set("source_id", "ehr").set("table_name", "notes")
                .set("active_generation", 1L).set("staged_generation", 0L).set("rows", 3L).set("chunks", 4L).set("model_id", "m")
                .set("source_position", "").set("commit_ts_ms", 0L).set("updated_ms", 1L).build();

        BinaryMessageDecoder<IngestTableStatus> reader = IngestTableStatus.createDecoder(KnownSchemas.store());
        reader.addSchema(first);
        IngestTableStatus read = reader.decode(encode(first, written));

        assertThat(read.getRows()).isEqualTo(3);
        assertThat(read.getRowsSkippedEmpty()).isZero();
        assertThat(read.getUnreviewedColumns()).isEmpty();
        assertThat(read.getStagedRows()).isZero();
        assertThat(read.getDropped()).isFalse();
        assertThat(read.getUnresolvedCodes()).as("a status from before codes were resolved names none unresolved").isZero();
    }

    @Test
    void aLaterWritersAddedFieldIsSkippedAndItsNewCommandReadsAsUnknown() throws Exception {
        Schema later = new Schema.Parser().parse(IngestControl.getClassSchema().toString()
                .replace("\"REINDEX\",\"TABLE_DROPPED\"]", "\"REINDEX\",\"TABLE_DROPPED\",\"PAUSE\"]")
                .replace("{\"name\":\"requested_ms\"", "{\"name\":\"requested_by\",\"type\":\"string\",\"default\":\"\"},{\"name\":\"requested_ms\""));
        GenericRecord written = new GenericRecordBuilder(later)
                .set("command", new GenericData.EnumSymbol(later.getField("command").schema(), "PAUSE"))
                .set("source_id", "ehr").set("table_name", "notes").set("requested_by", "ops").set("requested_ms", 3L).build();

        BinaryMessageDecoder<IngestControl> reader = IngestControl.createDecoder(KnownSchemas.store());
        reader.addSchema(later);
        IngestControl read = reader.decode(encode(later, written));

        assertThat(read.getCommand()).isEqualTo(IngestCommand.UNKNOWN);
        assertThat(read.getTableName()).isEqualTo("notes");
        assertThat(read.getRequestedMs()).isEqualTo(3L);
    }

    @Test
    void theJsonEarlierVersionsWroteIsNotARecord() {
        byte[] oldStatus = ("{\"source\":\"ehr\",\"table\":\"notes\",\"active\":1,\"staged\":0,\"rows\":3,\"chunks\":3}")
                .getBytes(StandardCharsets.UTF_8);
        byte[] oldProgress = "{\"partition\":0,\"instance\":\"a\",\"chunks\":1,\"events\":1,\"updated_ms\":1}".getBytes(StandardCharsets.UTF_8);

        assertThat(AvroSerde.of(IngestTableStatus.class).tryDeserialize(oldStatus)).isNull();
        assertThat(AvroSerde.of(EmbeddingProgress.class).tryDeserialize(oldProgress)).isNull();
        assertThat(AvroSerde.of(IngestControl.class).tryDeserialize("reindex".getBytes(StandardCharsets.UTF_8))).isNull();
    }

    private static <T extends SpecificRecord> T roundTrip(Class<T> type, T value) {
        AvroSerde<T> serde = AvroSerde.of(type);
        return serde.deserialize("t", serde.serialize("t", value));
    }

    private static byte[] encode(Schema writer, GenericRecord record) throws java.io.IOException {
        ByteBuffer written = new BinaryMessageEncoder<GenericRecord>(GenericData.get(), writer).encode(record);
        byte[] bytes = new byte[written.remaining()];
        written.get(bytes);
        return bytes;
    }
}

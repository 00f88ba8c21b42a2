package org.chartstream.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.GenericRecordBuilder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.message.BinaryMessageEncoder;
import org.chartstream.schemas.serde.AvroSerde;
import org.junit.jupiter.api.Test;

/**
 * The index log's chunks gained the patient's number, name and birth year (v2), then the row's fields (v3): an index
 * log written before either still replays, and a current record resolves against the older schemas (a reader that
 * does not know the fields skips them).
 */
class ChunkRecordEvolutionTest {
    private static final AvroSerde<IndexEvent> EVENTS = AvroSerde.of(IndexEvent.class);

    @Test
    void anIndexEventWrittenBeforeChunksCarriedThePatientReadsWithoutItThroughTheNewerReader() throws IOException {
        Schema v1 = history("IndexEvent-v1.avsc");
        Schema chunkV1 = v1.getField("chunks").schema().getElementType();
        assertThat(chunkV1.getField("patient_number")).isNull();
        GenericRecord chunk = new GenericRecordBuilder(chunkV1).set("chunk_id", "ehr:patients:p7:0:1").set("source_id", "ehr")
                .set("table_name", "patients").set("row_key", "p7").set("chunk_index", 0).set("chunk_count", 1)
                .set("generation", 1L).set("text", "record: patients\npatient: Elizabeth Ross (MRN-7)")
                .set("vector", List.of(0.5f, -0.5f)).set("patient_key", "MRN-7").set("source_position", "lsn:1")
                .set("commit_ts_ms", 2L).set("model_id", "m").set("dimension", 2).build();
        GenericRecord old = new GenericRecordBuilder(v1).set("kind", new GenericData.EnumSymbol(v1.getField("kind").schema(), "UPSERT_ROW"))
                .set("source_id", "ehr").set("table_name", "patients").set("row_key", "p7").set("generation", 1L)
                .set("chunks", List.of(chunk)).build();

        IndexEvent read = EVENTS.deserialize("chartstream.index", singleObject(v1, old));

        ChunkRecord c = read.getChunks().get(0);
        assertThat(c.getPatientKey()).isEqualTo("MRN-7");
        assertThat(c.getText()).isEqualTo("record: patients\npatient: Elizabeth Ross (MRN-7)");
        assertThat(c.getPatientNumber()).isNull();
        assertThat(c.getPatientName()).isNull();
        assertThat(c.getPatientBirthYear()).isNull();
    }

    @Test
    void aChunkWithThePatientRoundTripsAndResolvesAgainstTheOlderSchema() throws IOException {
        ChunkRecord chunk = ChunkRecord.newBuilder().setChunkId("ehr:patients:p7:0:1").setSourceId("ehr").setTableName("patients")
                .setRowKey("p7").setChunkIndex(0).setChunkCount(1).setGeneration(1).setText("record: patients")
                .setVector(List.of(0.25f)).setPatientKey("MRN-7").setSourcePosition("lsn:1").setCommitTsMs(2L).setModelId("m")
                .setDimension(1).setPatientNumber("MRN-7").setPatientName("Elizabéth Róss").setPatientBirthYear(1961).build();
        IndexEvent event = IndexEvent.newBuilder().setKind(IndexEventKind.UPSERT_ROW).setSourceId("ehr").setTableName("patients")
                .setRowKey("p7").setGeneration(1).setChunks(List.of(chunk)).build();
        assertThat(EVENTS.deserialize("t", EVENTS.serialize("t", event))).isEqualTo(event);

        GenericRecord oldChunk = firstChunkAsRead(history("IndexEvent-v1.avsc"), event);
        assertThat(oldChunk.getSchema().getField("patient_name")).isNull();
        assertThat(oldChunk.get("patient_key")).hasToString("MRN-7");
        assertThat(oldChunk.get("text")).hasToString("record: patients");
    }

    @Test
    void aChunkWrittenBeforeChunksCarriedTheRowsFieldsReadsWithNoneThroughTheNewerReader() throws IOException {
        Schema v2 = history("IndexEvent-v2.avsc");
        assertThat(v2.getField("chunks").schema().getElementType().getField("fields")).isNull();
        GenericRecord old = oneChunkUpsert(v2, "record: medications\ndrug: Lisinopril 10 MG");
        ((GenericRecord) ((List<?>) old.get("chunks")).get(0)).put("patient_number", "MRN-7");

        ChunkRecord c = EVENTS.deserialize("chartstream.index", singleObject(v2, old)).getChunks().get(0);

        assertThat(c.getFields()).isEmpty();
        assertThat(c.getPatientNumber()).isEqualTo("MRN-7");
        assertThat(c.getText()).isEqualTo("record: medications\ndrug: Lisinopril 10 MG");
    }

    @Test
    void aChunkWithTheRowsFieldsRoundTripsAndResolvesAgainstTheOlderSchema() throws IOException {
        ChunkRecord chunk = ChunkRecord.newBuilder().setChunkId("ehr:medications:m1:0:1").setSourceId("ehr")
                .setTableName("medications").setRowKey("m1").setChunkIndex(0).setChunkCount(1).setGeneration(1)
                .setText("record: medications").setVector(List.of(0.25f)).setPatientKey("MRN-7").setSourcePosition("lsn:1")
                .setCommitTsMs(2L).setModelId("m").setDimension(1).setFields(Map.of("drug", "Lisinopril 10 MG", "route", "PO"))
                .build();
        IndexEvent event = IndexEvent.newBuilder().setKind(IndexEventKind.UPSERT_ROW).setSourceId("ehr").setTableName("medications")
                .setRowKey("m1").setGeneration(1).setChunks(List.of(chunk)).build();
        assertThat(EVENTS.deserialize("t", EVENTS.serialize("t", event)).getChunks().get(0).getFields())
                .containsExactlyInAnyOrderEntriesOf(Map.of("drug", "Lisinopril 10 MG", "route", "PO"));

        GenericRecord oldChunk = firstChunkAsRead(history("IndexEvent-v2.avsc"), event);
        assertThat(oldChunk.getSchema().getField("fields")).isNull();
        assertThat(oldChunk.get("text")).hasToString("record: medications");
        assertThat(oldChunk.get("patient_key")).hasToString("MRN-7");
    }

    /** An upsert of row {@code ehr:t:r1} with one chunk of {@code text}, written with {@code writer}. */
    static GenericRecord oneChunkUpsert(Schema writer, String text) {
        Schema chunkSchema = writer.getField("chunks").schema().getElementType();
        GenericRecord chunk = new GenericRecordBuilder(chunkSchema).set("chunk_id", "ehr:t:r1:0:1").set("source_id", "ehr")
                .set("table_name", "t").set("row_key", "r1").set("chunk_index", 0).set("chunk_count", 1)
                .set("generation", 1L).set("text", text).set("vector", List.of(0.5f)).set("patient_key", "MRN-7")
                .set("source_position", "lsn:1").set("commit_ts_ms", 2L).set("model_id", "m").set("dimension", 1).build();
        return new GenericRecordBuilder(writer).set("kind", new GenericData.EnumSymbol(writer.getField("kind").schema(), "UPSERT_ROW"))
                .set("source_id", "ehr").set("table_name", "t").set("row_key", "r1").set("generation", 1L)
                .set("chunks", List.of(chunk)).build();
    }

    /** The event's first chunk as a reader of {@code older} reads it, the two schemas compatible both ways. */
    private static GenericRecord firstChunkAsRead(Schema older, IndexEvent event) throws IOException {
        return (GenericRecord) ((List<?>) asRead(older, event).get("chunks")).get(0);
    }

    /** The event as a reader of {@code older} reads it, the two schemas compatible both ways. */
    static GenericRecord asRead(Schema older, IndexEvent event) throws IOException {
        Schema current = IndexEvent.getClassSchema();
        assertThat(SchemaCompatibility.checkReaderWriterCompatibility(current, older).getType())
                .isEqualTo(SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE);
        assertThat(SchemaCompatibility.checkReaderWriterCompatibility(older, current).getType())
                .isEqualTo(SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE);
        return new GenericDatumReader<GenericRecord>(current, older)
                .read(null, DecoderFactory.get().binaryDecoder(datum(current, event), null));
    }

    static Schema history(String file) throws IOException {
        try (InputStream in = ChunkRecordEvolutionTest.class.getResourceAsStream("/avro-history/" + file)) {
            return new Schema.Parser().parse(in);
        }
    }

    static byte[] singleObject(Schema writer, GenericRecord record) throws IOException {
        ByteBuffer written = new BinaryMessageEncoder<GenericRecord>(GenericData.get(), writer).encode(record);
        byte[] bytes = new byte[written.remaining()];
        written.get(bytes);
        return bytes;
    }

    private static byte[] datum(Schema writer, Object record) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<Object>(writer, GenericData.get()).write(record, encoder);
        encoder.flush();
        return out.toByteArray();
    }
}

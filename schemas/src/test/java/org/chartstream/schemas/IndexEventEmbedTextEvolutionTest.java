package org.chartstream.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.chartstream.schemas.ChunkRecordEvolutionTest.datum;
import static org.chartstream.schemas.ChunkRecordEvolutionTest.history;
import static org.chartstream.schemas.ChunkRecordEvolutionTest.singleObject;

import java.io.IOException;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.GenericRecordBuilder;
import org.apache.avro.io.DecoderFactory;
import org.chartstream.schemas.serde.AvroSerde;
import org.junit.jupiter.api.Test;

/**
 * An index event gained the text the embedding model reads for all the row's chunks (v4, {@code embed_text}): an
 * index log or embedding buffer written before it still reads (no embed text: each chunk's own text is embedded), and
 * a current event resolves against v3 both ways.
 */
class IndexEventEmbedTextEvolutionTest {
    private static final AvroSerde<IndexEvent> EVENTS = AvroSerde.of(IndexEvent.class);

    @Test
    void anEventWrittenBeforeEventsCarriedAnEmbedTextReadsWithNone() throws IOException {
        Schema v3 = history("IndexEvent-v3.avsc");
        assertThat(v3.getField("embed_text")).isNull();
        Schema chunkV3 = v3.getField("chunks").schema().getElementType();
        GenericRecord chunk = new GenericRecordBuilder(chunkV3).set("chunk_id", "ehr:results:r1:0:1").set("source_id", "ehr")
                .set("table_name", "results").set("row_key", "r1").set("chunk_index", 0).set("chunk_count", 1)
                .set("generation", 1L).set("text", "record: results\nlab test: Potassium").set("vector", List.of())
                .set("patient_key", "MRN-7").set("source_position", "lsn:1").set("commit_ts_ms", 2L).set("model_id", "m")
                .set("dimension", 2).build();
        GenericRecord old = new GenericRecordBuilder(v3).set("kind", new GenericData.EnumSymbol(v3.getField("kind").schema(), "UPSERT_ROW"))
                .set("source_id", "ehr").set("table_name", "results").set("row_key", "r1").set("generation", 1L)
                .set("chunks", List.of(chunk)).build();

        IndexEvent read = EVENTS.deserialize("chartstream.ingest.embed", singleObject(v3, old));

        assertThat(read.getEmbedText()).isNull();
        assertThat(read.getChunks().getFirst().getText()).isEqualTo("record: results\nlab test: Potassium");
    }

    @Test
    void anEventWithAnEmbedTextRoundTripsAndAReaderOfV3SkipsIt() throws IOException {
        ChunkRecord chunk = ChunkRecord.newBuilder().setChunkId("ehr:results:r1:0:1").setSourceId("ehr").setTableName("results")
                .setRowKey("r1").setChunkIndex(0).setChunkCount(1).setGeneration(1).setText("record: results\nvalue: 4.1")
                .setVector(List.of()).setPatientKey("MRN-7").setSourcePosition("lsn:1").setCommitTsMs(2L).setModelId("m")
                .setDimension(2).build();
        IndexEvent event = IndexEvent.newBuilder().setKind(IndexEventKind.UPSERT_ROW).setSourceId("ehr").setTableName("results")
                .setRowKey("r1").setGeneration(1).setChunks(List.of(chunk)).setEmbedText("lab test: Potassium").build();
        assertThat(EVENTS.deserialize("t", EVENTS.serialize("t", event))).isEqualTo(event);

        Schema v3 = history("IndexEvent-v3.avsc");
        Schema current = IndexEvent.getClassSchema();
        assertThat(SchemaCompatibility.checkReaderWriterCompatibility(current, v3).getType())
                .isEqualTo(SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE);
        assertThat(SchemaCompatibility.checkReaderWriterCompatibility(v3, current).getType())
                .isEqualTo(SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE);
        GenericRecord asOld = new GenericDatumReader<GenericRecord>(current, v3)
                .read(null, DecoderFactory.get().binaryDecoder(datum(current, event), null));
        assertThat(asOld.getSchema().getField("embed_text")).isNull();
        assertThat(asOld.get("row_key")).hasToString("r1");
    }
}

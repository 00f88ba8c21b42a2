package org.chartstream.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.chartstream.schemas.ChunkRecordEvolutionTest.asRead;
import static org.chartstream.schemas.ChunkRecordEvolutionTest.history;
import static org.chartstream.schemas.ChunkRecordEvolutionTest.oneChunkUpsert;
import static org.chartstream.schemas.ChunkRecordEvolutionTest.singleObject;

import java.io.IOException;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
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

        IndexEvent read = EVENTS.deserialize("chartstream.ingest.embed",
                singleObject(v3, oneChunkUpsert(v3, "record: results\nlab test: Potassium")));

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

        GenericRecord asOld = asRead(history("IndexEvent-v3.avsc"), event);

        assertThat(asOld.getSchema().getField("embed_text")).isNull();
        assertThat(asOld.get("row_key")).hasToString("r1");
    }
}

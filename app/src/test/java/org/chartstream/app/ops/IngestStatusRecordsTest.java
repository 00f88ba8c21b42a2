package org.chartstream.app.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.chartstream.schemas.IngestTableStatus;
import org.chartstream.schemas.serde.AvroSerde;
import org.junit.jupiter.api.Test;

class IngestStatusRecordsTest {
    private static final IngestTableStatus NOTES = status("ehr", "clinical_notes");
    private static final AvroSerde<IngestTableStatus> SERDE = AvroSerde.of(IngestTableStatus.class);

    static IngestTableStatus status(String source, String table) {
        return IngestTableStatus.newBuilder().setSourceId(source).setTableName(table).setActiveGeneration(2).setStagedGeneration(0)
                .setRows(59).setChunks(120).setModelId("m").setSourcePosition("lsn:1").setCommitTsMs(1).setUpdatedMs(2)
                .setUnreviewedColumns(List.of()).build();
    }

    @Test
    void aTableStatusUnderItsOwnKeyIsRead() {
        IngestStatusRecords.Read read = IngestStatusRecords.read("ehr:clinical_notes", SERDE.serialize(NOTES));
        assertThat(read.readable()).isTrue();
        assertThat(read.status()).isEqualTo(NOTES);
    }

    @Test
    void aTombstoneIsNothingToRead() {
        IngestStatusRecords.Read read = IngestStatusRecords.read("ehr:clinical_notes", null);
        assertThat(read.readable()).isTrue();
        assertThat(read.status()).isNull();
    }

    @Test
    void foreignBytesAKeylessRecordAndTheJsonOfEarlierVersionsAreNotTableStatuses() {
        assertThat(IngestStatusRecords.read("ehr:clinical_notes", "\u00c3\u0001garbage".getBytes(StandardCharsets.UTF_8)).problem())
                .startsWith("not a table status");
        assertThat(IngestStatusRecords.read(null, SERDE.serialize(NOTES)).problem()).isEqualTo("a table status without a key");
        assertThat(IngestStatusRecords.read("ehr:clinical_notes",
                "{\"source\":\"ehr\",\"table\":\"clinical_notes\",\"active\":1}".getBytes(StandardCharsets.UTF_8)).problem())
                .isEqualTo("not a table status (Avro IngestTableStatus expected)");
        assertThat(IngestStatusRecords.read("ehr:clinical_notes", SERDE.serialize(status("", "clinical_notes"))).problem())
                .contains("without a source or table");
    }

    @Test
    void aStatusUnderAnotherTablesKeyWouldOverwriteThatTableAndIsRefused() {
        assertThat(IngestStatusRecords.read("ehr:patients", SERDE.serialize(NOTES)).problem()).contains("key is not its own");
    }
}

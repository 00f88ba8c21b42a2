package org.chartstream.app.ops;

import static org.assertj.core.api.Assertions.assertThat;

import org.chartstream.ingest.status.TableStatus;
import org.junit.jupiter.api.Test;

class IngestStatusRecordsTest {
    private static final TableStatus NOTES = TableStatus.empty("ehr", "clinical_notes").withGenerations(2, 0).withCounts(59, 120);

    @Test
    void aTableStatusUnderItsOwnKeyIsRead() {
        IngestStatusRecords.Read read = IngestStatusRecords.read("ehr:clinical_notes", NOTES.encode());
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
    void foreignBytesAKeylessRecordAndAnEmptyObjectAreNotTableStatuses() {
        assertThat(IngestStatusRecords.read("ehr:clinical_notes", "\u00c3\u0001garbage").problem()).startsWith("not a table status");
        assertThat(IngestStatusRecords.read(null, NOTES.encode()).problem()).isEqualTo("a table status without a key");
        assertThat(IngestStatusRecords.read("ehr:clinical_notes", "{}").problem()).contains("without 'source' or 'table'");
        assertThat(IngestStatusRecords.read("ehr:clinical_notes", "[1,2]").problem()).isNotNull();
    }

    @Test
    void aStatusUnderAnotherTablesKeyWouldOverwriteThatTableAndIsRefused() {
        assertThat(IngestStatusRecords.read("ehr:patients", NOTES.encode()).problem()).contains("key is not its own");
    }
}

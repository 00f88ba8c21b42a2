package org.chartstream.ingest.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TableStatusTest {
    @Test
    void aTombstoneLeavesTheLastKnownSourcePosition() {
        TableStatus s = TableStatus.empty("ehr", "notes").withChange("lsn:10", 100, "m").withChange("", 0, "m");
        assertThat(s.position()).isEqualTo("lsn:10");
        assertThat(s.commitTsMs()).isEqualTo(100);
    }

    @Test
    void survivesItsEncoding() {
        TableStatus s = new TableStatus("ehr", "notes", 2, 3, 41, 55, "all-minilm-l6-v2", "binlog:b.000001:4:0", 500, 900);
        assertThat(TableStatus.decode(s.encode())).isEqualTo(s);
        assertThatThrownBy(() -> TableStatus.decode("{")).isInstanceOf(IllegalArgumentException.class);
        TableStatus noticed = s.withSkippedEmptyRow().withSkippedEmptyRow().withUnreviewedColumns(java.util.List.of("ssn", "mood"));
        assertThat(TableStatus.decode(noticed.encode())).isEqualTo(noticed);
        assertThat(noticed.rowsSkippedEmpty()).isEqualTo(2);
        TableStatus unresolved = s.withUnresolvedCodes(3).withUnresolvedCodes(-1);
        assertThat(TableStatus.decode(unresolved.encode()).unresolvedCodes()).isEqualTo(2);
        assertThat(unresolved.toRecord().getUnresolvedCodes()).isEqualTo(2);
        // a status written before these fields existed
        String old = "{\"source\":\"ehr\",\"table\":\"notes\",\"active\":1,\"rows\":4}";
        assertThat(TableStatus.decode(old).unreviewedColumns()).isEmpty();
        assertThat(TableStatus.decode(old).rowsSkippedEmpty()).isZero();
        assertThat(TableStatus.decode(old).unresolvedCodes()).isZero();
    }
}

package org.chartstream.query.audit;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AuditRecordsTest {
    @Test
    void contentHashIsTheHexSha256OfTheUtf8Text() {
        assertThat(AuditRecords.contentSha256("abc")).isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assertThat(AuditRecords.contentSha256("Zolmitriptan 2.5 MG")).isNotEqualTo(AuditRecords.contentSha256("Zolmitriptan 5 MG"));
    }
}

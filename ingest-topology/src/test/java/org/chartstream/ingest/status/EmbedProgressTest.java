package org.chartstream.ingest.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class EmbedProgressTest {
    @Test
    void aBatchAddsToThePartitionsCountsAndNamesTheInstanceThatEmbeddedIt() {
        EmbedProgress after = EmbedProgress.none(1).plus(64, 20, "host:ingest-a", 1_000).plus(10, 3, "host:ingest-b", 2_000);

        assertThat(after).isEqualTo(new EmbedProgress(1, "host:ingest-b", 74, 23, 2_000));
        assertThat(EmbedProgress.decode(after.encode())).isEqualTo(after);
        assertThat(EmbedProgress.key(1)).isEqualTo("embed-1");
    }

    @Test
    void aRecordThatIsNotAProgressRecordIsRefused() {
        assertThatThrownBy(() -> EmbedProgress.decode("{\"source\":\"ehr\"}")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> EmbedProgress.decode("not json")).isInstanceOf(IllegalArgumentException.class);
    }
}

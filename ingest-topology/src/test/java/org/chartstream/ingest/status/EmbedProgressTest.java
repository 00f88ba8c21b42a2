package org.chartstream.ingest.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class EmbedProgressTest {
    @Test
    void aBatchAddsToThePartitionsCountsAndNamesTheInstanceThatEmbeddedIt() {
        EmbedProgress after = EmbedProgress.none(1).plus(64, 20, Map.of(), "host:ingest-a", 1_000)
                .plus(10, 3, Map.of(), "host:ingest-b", 2_000);

        assertThat(after).isEqualTo(new EmbedProgress(1, "host:ingest-b", 74, 23, 2_000, Map.of()));
        assertThat(EmbedProgress.decode(after.encode())).isEqualTo(after);
        assertThat(EmbedProgress.key(1)).isEqualTo("embed-1");
    }

    @Test
    void perTableItCountsTheNewestGenerationsChunksAndANewerGenerationStartsTheCountAgain() {
        EmbedProgress progress = EmbedProgress.none(0)
                .plus(30, 10, Map.of("ehr:notes", Map.of(1L, 30L)), "a", 1)
                .plus(20, 5, Map.of("ehr:notes", Map.of(1L, 20L), "ehr:visits", Map.of(1L, 4L)), "a", 2);
        assertThat(progress.tables()).containsEntry("ehr:notes", new EmbedProgress.TableEmbedded(1, 50))
                .containsEntry("ehr:visits", new EmbedProgress.TableEmbedded(1, 4));

        EmbedProgress reindexing = progress.plus(9, 3, Map.of("ehr:notes", Map.of(1L, 2L, 2L, 7L)), "a", 3);
        assertThat(reindexing.tables()).containsEntry("ehr:notes", new EmbedProgress.TableEmbedded(2, 7));
        assertThat(reindexing.plus(2, 1, Map.of("ehr:notes", Map.of(1L, 2L)), "a", 4).tables())
                .as("a streamed change to the active generation while generation 2 is staged")
                .containsEntry("ehr:notes", new EmbedProgress.TableEmbedded(2, 7));
        assertThat(EmbedProgress.decode(reindexing.encode())).isEqualTo(reindexing);
        assertThat(reindexing.toRecord().getTables().get("ehr:notes").getChunks()).isEqualTo(7);
    }

    @Test
    void aRecordThatIsNotAProgressRecordIsRefused() {
        assertThatThrownBy(() -> EmbedProgress.decode("{\"source\":\"ehr\"}")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> EmbedProgress.decode("not json")).isInstanceOf(IllegalArgumentException.class);
    }
}

package org.chartstream.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PipelineTopicsTest {
    @Test
    void onlySinglePartitionChangeTopicsPass() {
        assertThat(PipelineTopics.multiPartitionTopics(Map.of("ehr.public.notes", 1, "ehr.public.visits", 3)))
                .containsExactly("ehr.public.visits (3)");
    }
}

package org.chartstream.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreStatusTest {
    @Test
    void storeStatusSurvivesItsFile(@TempDir Path dir) throws Exception {
        StoreStatus s = new StoreStatus(1234, "chartstream.index", Map.of("ehr:notes", 2L), Map.of("ehr:notes", 40L), Map.of(0, 90L, 1, 3L));
        s.write(dir);
        assertThat(StoreStatus.read(dir)).contains(s);
        assertThat(StoreStatus.read(dir.resolve("missing"))).isEmpty();
    }
}

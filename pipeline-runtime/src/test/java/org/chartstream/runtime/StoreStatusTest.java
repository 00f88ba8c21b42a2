package org.chartstream.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.chartstream.schemas.ReplicaStatus;
import org.chartstream.schemas.serde.AvroSerde;
import org.junit.jupiter.api.Test;

class StoreStatusTest {
    private final StoreStatus status = new StoreStatus("host:/run", 1234, "chartstream.index", Map.of("ehr:notes", 2L, "ehr:patients", 1L),
            Map.of("ehr:notes", 40L, "ehr:patients", 3L), Map.of(0, 90L, 1, 3L));

    @Test
    void storeStatusSurvivesItsWireRecord() {
        AvroSerde<ReplicaStatus> serde = AvroSerde.of(ReplicaStatus.class);
        assertThat(StoreStatus.of(serde.deserialize("t", serde.serialize("t", status.toRecord())))).isEqualTo(status);
        assertThat(status.toRecord().getTables()).extracting(t -> t.getSourceId() + "/" + t.getTableName())
                .containsExactly("ehr/notes", "ehr/patients");
    }

    @Test
    void theSameViewAtAnotherTimeIsTheSameViewAndAnotherGenerationIsNot() {
        StoreStatus later = new StoreStatus("host:/run", 9999, "chartstream.index", status.activeGenerations(), status.rows(),
                status.committedPositions());
        StoreStatus republished = new StoreStatus("host:/run", 9999, "chartstream.index", Map.of("ehr:notes", 3L, "ehr:patients", 1L),
                status.rows(), status.committedPositions());
        assertThat(later.sameViewAs(status)).isTrue();
        assertThat(republished.sameViewAs(status)).isFalse();
        assertThat(status.sameViewAs(null)).isFalse();
    }
}

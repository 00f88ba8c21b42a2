package org.chartstream.ingest.status;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.chartstream.ingest.publish.TableGenerations;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TableStatusesTest {
    private KeyValueStore<String, String> store;

    @BeforeEach
    void openStore() {
        store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("table-status"), Serdes.String(), Serdes.String())
                .withLoggingDisabled().build();
        store.init(new MockProcessorContext<>().getStateStoreContext(), store);
    }

    private static Map<String, TableStatus> announce(TableStatuses statuses, long nowMs) {
        Map<String, TableStatus> announced = new LinkedHashMap<>();
        statuses.announce(nowMs, tableKey -> new TableGenerations(2, 3, 3, 0), announced::put);
        return announced;
    }

    @Test
    void onlyChangedTablesAreAnnouncedOnceWithTheirCurrentGenerationsAndTheTime() {
        TableStatuses statuses = new TableStatuses(store);
        statuses.put("ehr:notes", TableStatus.empty("ehr", "notes").withCounts(5, 7));
        statuses.put("ehr:labs", TableStatus.empty("ehr", "labs"));

        Map<String, TableStatus> first = announce(statuses, 1_000);
        statuses.touch("ehr:labs");
        statuses.touch("ehr:nothing-kept");
        Map<String, TableStatus> second = announce(statuses, 2_000);

        assertThat(first).containsOnlyKeys("ehr:notes", "ehr:labs");
        assertThat(first.get("ehr:notes")).satisfies(s -> {
            assertThat(s.rows()).isEqualTo(5);
            assertThat(s.active()).isEqualTo(2);
            assertThat(s.staged()).isEqualTo(3);
            assertThat(s.updatedMs()).isEqualTo(1_000);
        });
        assertThat(second).containsOnlyKeys("ehr:labs");
        assertThat(TableStatus.decode(store.get("ehr:notes")).active()).as("the kept status is not the announced one").isZero();
    }

    @Test
    void afterARestartEveryKeptStatusIsAnnouncedAgain() {
        new TableStatuses(store).put("ehr:notes", TableStatus.empty("ehr", "notes"));

        TableStatuses restarted = new TableStatuses(store);

        assertThat(announce(restarted, 1_000)).containsOnlyKeys("ehr:notes");
        assertThat(restarted.of("ehr:labs", "ehr", "labs")).isEqualTo(TableStatus.empty("ehr", "labs"));
    }
}

package org.chartstream.ingest.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.chartstream.core.store.TableRef;
import org.chartstream.ingest.project.RowImage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RowImagesTest {
    private static final TableRef NOTES = new TableRef("ehr", "notes");
    private RowImages images;
    private KeyValueStore<String, String> store;

    @BeforeEach
    void openStore() {
        store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("row-images"), Serdes.String(), Serdes.String())
                .withLoggingDisabled().build();
        store.init(new MockProcessorContext<>().getStateStoreContext(), store);
        images = new RowImages(store);
        for (RowId row : List.of(new RowId("ehr", "notes", "2"), new RowId("ehr", "notes", "1"), new RowId("ehr", "notes2", "1"),
                new RowId("ehr", "note", "9"), new RowId("ehr", "notes", ""), new RowId("ehr", "notes", "a:b"))) {
            images.put(row, image(row.rowKey()));
        }
    }

    private static RowImage image(String text) {
        return new RowImage(1, 1, "lsn:1", 0, Map.of("note_text", text));
    }

    private List<String> scan(RowId after, int most) {
        List<String> keys = new ArrayList<>();
        images.scan(NOTES, after, (row, image) -> {
            keys.add(row.rowKey());
            assertThat(image.row().get("note_text")).isEqualTo(row.rowKey());
            return keys.size() < most;
        });
        return keys;
    }

    @Test
    void aTablesRowsAreVisitedInKeyOrderWithoutAnotherTablesWhoseNameItBegins() {
        assertThat(scan(null, 10)).containsExactly("", "1", "2", "a:b");
        assertThat(store.get("ehr:notes:2")).as("kept under the row's id").isNotNull();
    }

    @Test
    void aScanGoesOnAfterTheRowItStoppedAtAndStopsWhenAsked() {
        assertThat(scan(null, 2)).containsExactly("", "1");
        assertThat(scan(new RowId("ehr", "notes", "1"), 10)).containsExactly("2", "a:b");
        assertThat(RowId.parse("ehr:notes:a:b")).isEqualTo(new RowId("ehr", "notes", "a:b"));
    }

    @Test
    void aDeletedRowIsGone() {
        images.delete(new RowId("ehr", "notes", "2"));
        assertThat(images.get(new RowId("ehr", "notes", "2"))).isNull();
        assertThat(images.get(new RowId("ehr", "notes", "1"))).isEqualTo(image("1"));
    }
}

package org.chartstream.connectors;

import static org.assertj.core.api.Assertions.assertThat;

import io.debezium.embedded.KafkaConnectUtil;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.runtime.standalone.StandaloneConfig;
import org.apache.kafka.connect.storage.FileOffsetBackingStore;
import org.apache.kafka.connect.storage.OffsetBackingStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFileOffsetBackingStoreTest {

    private static StandaloneConfig config(Path file) {
        return new StandaloneConfig(Map.of("offset.storage.file.filename", file.toString(), "bootstrap.servers", "127.0.0.1:1",
                "key.converter", "org.apache.kafka.connect.json.JsonConverter",
                "value.converter", "org.apache.kafka.connect.json.JsonConverter"));
    }

    private static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void eachWriteReplacesTheFileInOneStepInTheFormatKafkasFileStoreReads(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("ehr.offsets.dat");
        ByteBuffer key = bytes("[\"chartstream-ehr\",{\"server\":\"ehr\"}]");
        AtomicFileOffsetBackingStore store = new AtomicFileOffsetBackingStore();
        store.configure(config(file));
        store.start();
        try {
            store.set(Map.of(key, bytes("{\"lsn\":1}")), null).get(10, TimeUnit.SECONDS);
            Object before = Files.readAttributes(file, BasicFileAttributes.class).fileKey();
            store.set(Map.of(key, bytes("{\"lsn\":2}")), null).get(10, TimeUnit.SECONDS);
            // a new file renamed over the old one: never the old file truncated and written again (a kill in between
            // left Kafka's store with an empty file, read as "no offsets", so Debezium snapshotted again)
            assertThat(Files.readAttributes(file, BasicFileAttributes.class).fileKey()).isNotEqualTo(before);
            assertThat(dir.resolve("ehr.offsets.dat.tmp")).doesNotExist();
        } finally {
            store.stop();
        }

        OffsetBackingStore kafkas = new FileOffsetBackingStore(KafkaConnectUtil.converterForOffsetStore());
        kafkas.configure(config(file));
        kafkas.start();
        try {
            ByteBuffer read = kafkas.get(List.of(key)).get(10, TimeUnit.SECONDS).get(key);
            assertThat(StandardCharsets.UTF_8.decode(read).toString()).isEqualTo("{\"lsn\":2}");
        } finally {
            kafkas.stop();
        }
    }
}

package org.chartstream.connectors;

import io.debezium.embedded.KafkaConnectUtil;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.runtime.WorkerConfig;
import org.apache.kafka.connect.storage.FileOffsetBackingStore;

/**
 * Kafka Connect's file offset store, but each write replaces the file in one step: the offsets go to a temporary file
 * next to it, which is synced and then renamed over it. {@link FileOffsetBackingStore} truncates the file and writes
 * it in place, so a kill -9 during a write leaves it empty or cut off, which it then reads as "no offsets" and
 * Debezium snapshots every table again. The offsets are written after every batch ({@link DebeziumConfigs}), many
 * times a second while changes stream, so a kill does land in a write. Reading, and the file format, are
 * {@link FileOffsetBackingStore}'s.
 */
public final class AtomicFileOffsetBackingStore extends FileOffsetBackingStore {
    private Path file;

    /** As the embedded engine builds its file store: with its JSON key converter. */
    public AtomicFileOffsetBackingStore() {
        super(KafkaConnectUtil.converterForOffsetStore());
    }

    @Override
    public void configure(WorkerConfig config) {
        super.configure(config);
        file = Path.of(config.getString("offset.storage.file.filename"));
    }

    @Override
    protected void save() {
        Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            try (OutputStream out = Files.newOutputStream(temporary);
                 ObjectOutputStream objects = new ObjectOutputStream(out)) {
                Map<byte[], byte[]> raw = new HashMap<>();
                for (Map.Entry<ByteBuffer, ByteBuffer> e : data.entrySet()) {
                    raw.put(e.getKey() == null ? null : e.getKey().array(), e.getValue() == null ? null : e.getValue().array());
                }
                objects.writeObject(raw);
            }
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
                channel.force(true);
            }
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new ConnectException("could not write the offsets to " + file, e);
        }
    }
}

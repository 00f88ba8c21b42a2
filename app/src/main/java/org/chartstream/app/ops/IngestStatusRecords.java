package org.chartstream.app.ops;

import org.chartstream.core.store.TableRef;
import org.chartstream.schemas.IngestTableStatus;
import org.chartstream.schemas.serde.AvroSerde;

/**
 * Reads one record of the compacted ingest status topic: an {@link IngestTableStatus} keyed by its own
 * {@code source:table}, or why it is not one (the JSON that versions before the Avro payload wrote is not). The topic
 * keeps the last record of every key for good, so a reader that stopped on a bad one would stay broken; readers skip
 * and report it instead.
 */
public final class IngestStatusRecords {
    private static final AvroSerde<IngestTableStatus> SERDE = AvroSerde.of(IngestTableStatus.class);

    /** Exactly one of {@code status} and {@code problem} is set, except for a tombstone (both null). */
    public record Read(String key, IngestTableStatus status, String problem) {
        public boolean readable() {
            return problem == null;
        }
    }

    private IngestStatusRecords() {
    }

    public static Read read(String key, byte[] value) {
        if (value == null) {
            return new Read(key, null, null);
        }
        if (key == null || key.isEmpty()) {
            return new Read(key, null, "a table status without a key");
        }
        IngestTableStatus status = SERDE.tryDeserialize(value);
        if (status == null) {
            return new Read(key, null, "not a table status (Avro IngestTableStatus expected)");
        }
        if (status.getSourceId().isEmpty() || status.getTableName().isEmpty()) {
            return new Read(key, null, "a table status without a source or table");
        }
        if (!key.equals(new TableRef(status.getSourceId(), status.getTableName()).id())) {
            return new Read(key, null, "a table status whose key is not its own source:table");
        }
        return new Read(key, status, null);
    }
}

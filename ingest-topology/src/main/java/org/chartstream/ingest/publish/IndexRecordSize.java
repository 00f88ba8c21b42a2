package org.chartstream.ingest.publish;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * An upper bound of the serialized size of a row's index record (all its chunks, each with its vector), known
 * before the row is embedded. The ingest task checks it against {@code kafka.max-record-bytes}: a record over the
 * producer's limit would abort the Kafka Streams transaction, and then every retry, so one row would stop ingest.
 */
public final class IndexRecordSize {
    /** Chunk id, source, table, row key, patient key, position, model id and Avro framing: generous per chunk. */
    static final int PER_CHUNK_OVERHEAD = 1024;

    private IndexRecordSize() {
    }

    public static long upperBound(String rowKey, List<String> pieces, int dimension) {
        long key = rowKey.getBytes(StandardCharsets.UTF_8).length;
        long bytes = PER_CHUNK_OVERHEAD + key;
        for (String piece : pieces) {
            // the row key is in the record once and in every chunk twice (its id and its row key)
            bytes += piece.getBytes(StandardCharsets.UTF_8).length + 4L * dimension + 2 * key + PER_CHUNK_OVERHEAD;
        }
        return bytes;
    }
}

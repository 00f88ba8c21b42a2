package org.chartstream.ingest.publish;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.chartstream.ingest.chunk.RowChunks;

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

    /** {@link #upperBound(String, List, int)} plus the row's fields its first chunk carries and its embed text. */
    public static long upperBound(RowChunks row, int dimension) {
        long fields = row.embedText() == null ? 0 : row.embedText().getBytes(StandardCharsets.UTF_8).length + 5;
        for (Map.Entry<String, String> f : row.fields().entrySet()) {
            // each map entry: two length-prefixed strings (a varint prefix takes at most 5 bytes)
            fields += f.getKey().getBytes(StandardCharsets.UTF_8).length + f.getValue().getBytes(StandardCharsets.UTF_8).length + 10;
        }
        return upperBound(row.rowKey(), row.pieces(), dimension) + fields;
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

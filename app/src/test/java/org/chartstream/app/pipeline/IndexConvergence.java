package org.chartstream.app.pipeline;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.SearchHit;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.core.store.TableRef;
import org.chartstream.ingest.project.RowProjector;
import org.chartstream.ingest.project.TableProjection;
import org.chartstream.runtime.PipelineRuntime;

/**
 * Source against index: the same row keys, and per row a hash of the chunk texts the index serves equal to the hash
 * of what the source row projects and chunks to now. With the row count of the active generation equal to the
 * source's, nothing is missing, nothing is there twice and nothing deleted remains.
 */
final class IndexConvergence {
    private IndexConvergence() {
    }

    /** Row key → content hash of what the source row should be indexed as. */
    static Map<String, String> expected(PipelineRuntime runtime, String sourceId, Map<String, Map<String, String>> rows) {
        TableProjection projection = runtime.sources().stream().filter(s -> s.sourceId().equals(sourceId)).findFirst()
                .orElseThrow().table(NotesTable.TABLE).orElseThrow();
        Map<String, String> out = new TreeMap<>();
        rows.forEach((key, row) -> out.put(key, hash(runtime.chunker()
                .chunkUnderHeader(RowProjector.header(projection, null), RowProjector.body(projection, row)))));
        return out;
    }

    /** Row key → content hash of what the index serves for each of {@code keys} (absent rows are left out). */
    static Map<String, String> indexed(PipelineRuntime runtime, String sourceId, Set<String> keys) {
        Map<String, String> out = new TreeMap<>();
        for (String key : keys) {
            List<StoredChunk> chunks = runtime.store().rowChunks(new RowRef(sourceId, NotesTable.TABLE, key));
            if (!chunks.isEmpty()) {
                out.put(key, hash(chunks.stream().map(StoredChunk::text).toList()));
            }
        }
        return out;
    }

    /** What differs between source and index; empty when they agree. */
    static List<String> differences(PipelineRuntime runtime, String sourceId, Connection source) throws SQLException {
        Map<String, String> expected = expected(runtime, sourceId, NotesTable.rows(source));
        Map<String, String> indexed = indexed(runtime, sourceId, expected.keySet());
        long indexedRows = runtime.store().countRows(new TableRef(sourceId, NotesTable.TABLE));
        List<String> diff = new ArrayList<>();
        if (indexedRows != expected.size()) {
            diff.add("index has " + indexedRows + " rows, source " + expected.size());
        }
        expected.forEach((key, hash) -> {
            String got = indexed.get(key);
            if (got == null) {
                diff.add("row " + key + " missing");
            } else if (!got.equals(hash)) {
                diff.add("row " + key + " stale");
            }
        });
        return diff;
    }

    static void await(PipelineRuntime runtime, String sourceId, ConnectionSupplier source, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<String> diff;
        while (true) {
            runtime.checkHealthy();
            try (Connection c = source.open()) {
                diff = differences(runtime, sourceId, c);
            }
            if (diff.isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("index did not converge to the source within " + timeout.toSeconds() + " s: "
                        + diff.subList(0, Math.min(10, diff.size())) + (diff.size() > 10 ? " and " + (diff.size() - 10) + " more" : ""));
            }
            Thread.sleep(250);
        }
    }

    /** Deleted (or re-keyed) rows that a lexical search for their unique title word still finds. */
    static List<Integer> stillSearchable(PipelineRuntime runtime, List<Integer> goneIds) {
        List<Integer> found = new ArrayList<>();
        for (int id : goneIds) {
            List<SearchHit> hits = runtime.store().lexicalSearch("n" + id + "x", 5, RetrievalFilter.forTables(NotesTable.TABLE));
            if (hits.stream().anyMatch(h -> h.chunk().row().rowKey().equals(Integer.toString(id)))) {
                found.add(id);
            }
        }
        return found;
    }

    interface ConnectionSupplier {
        Connection open() throws SQLException;
    }

    static String hash(List<String> texts) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (String t : texts) {
                sha.update(t.getBytes(StandardCharsets.UTF_8));
                sha.update((byte) 0);
            }
            return HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

package org.chartstream.app.audit;

import org.chartstream.core.store.RowRef;

/**
 * One cited chunk as evidence names it: the row, which of its chunks, the generation and the source position of the
 * row version that was cited, and the SHA-256 of the cited text (empty when the evidence has none).
 */
public record CitedRow(RowRef row, int chunkIndex, long generation, String sourcePosition, String contentSha256) {

    /** Without a content hash (a reply's citation, an audit record written before hashes). */
    public static CitedRow of(String chunkId, long generation, String sourcePosition) {
        return of(chunkId, generation, sourcePosition, "");
    }

    /**
     * Parses a chunk id {@code source:table:rowKey:chunkIndex:generation}; the row key may itself hold ':' (the
     * source id and table name cannot), so the key is what lies between the second and the second-to-last ':'.
     */
    public static CitedRow of(String chunkId, long generation, String sourcePosition, String contentSha256) {
        int first = chunkId.indexOf(':');
        int second = first < 0 ? -1 : chunkId.indexOf(':', first + 1);
        int last = chunkId.lastIndexOf(':');
        int beforeLast = last < 0 ? -1 : chunkId.lastIndexOf(':', last - 1);
        if (first < 0 || second < 0 || beforeLast <= second) {
            throw new IllegalArgumentException("chunk id '" + chunkId + "' is not source:table:rowKey:chunkIndex:generation");
        }
        int index;
        try {
            index = Integer.parseInt(chunkId.substring(beforeLast + 1, last));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("chunk id '" + chunkId + "' has no numeric chunk index");
        }
        RowRef row = new RowRef(chunkId.substring(0, first), chunkId.substring(first + 1, second),
                chunkId.substring(second + 1, beforeLast));
        return new CitedRow(row, index, generation, sourcePosition, contentSha256 == null ? "" : contentSha256);
    }

    /** {@code source:table:rowKey}. */
    public String rowId() {
        return row.id();
    }
}

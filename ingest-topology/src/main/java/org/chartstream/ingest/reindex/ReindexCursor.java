package org.chartstream.ingest.reindex;

/**
 * How far a re-index has read a table's stored row images: the generation being built and the last row-store key
 * written into it (empty before the first). Rows are re-read in key order, a batch per punctuation, so streaming
 * changes interleave with the rebuild instead of waiting for it.
 */
public record ReindexCursor(long generation, String lastKey) {
    public String encode() {
        return generation + "\t" + lastKey;
    }

    public static ReindexCursor decode(String s) {
        int tab = s.indexOf('\t');
        return new ReindexCursor(Long.parseLong(s.substring(0, tab)), s.substring(tab + 1));
    }

    public ReindexCursor advancedTo(String key) {
        return new ReindexCursor(generation, key);
    }
}

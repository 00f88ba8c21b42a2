package org.chartstream.ingest.publish;

/**
 * One table's generation state on the ingest side.
 *
 * @param active      the published generation readers see (0: none yet)
 * @param staged      the generation being built by a snapshot or re-index (0: none)
 * @param highest     the highest generation number ever used, so numbers are never reused
 * @param stagedRows  rows written to the staged generation so far
 * @param scannedRows rows Debezium reported for the snapshot being staged (0: not reported yet)
 */
public record TableGenerations(long active, long staged, long highest, long stagedRows, long scannedRows) {
    public static final TableGenerations NONE = new TableGenerations(0, 0, 0, 0, 0);

    public TableGenerations(long active, long staged, long highest, long stagedRows) {
        this(active, staged, highest, stagedRows, 0);
    }

    public String encode() {
        return active + "," + staged + "," + highest + "," + stagedRows + "," + scannedRows;
    }

    /** Reads {@link #encode()}'s form, and the four-field form written before {@code scannedRows} existed. */
    public static TableGenerations decode(String s) {
        if (s == null) {
            return NONE;
        }
        String[] p = s.split(",");
        return new TableGenerations(Long.parseLong(p[0]), Long.parseLong(p[1]), Long.parseLong(p[2]), Long.parseLong(p[3]),
                p.length > 4 ? Long.parseLong(p[4]) : 0);
    }
}

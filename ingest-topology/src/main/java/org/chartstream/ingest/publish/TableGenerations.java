package org.chartstream.ingest.publish;

/**
 * One table's generation state on the ingest side.
 *
 * @param active     the published generation readers see (0: none yet)
 * @param staged     the generation being built by a snapshot or re-index (0: none)
 * @param highest    the highest generation number ever used, so numbers are never reused
 * @param stagedRows rows written to the staged generation so far
 */
public record TableGenerations(long active, long staged, long highest, long stagedRows) {
    public static final TableGenerations NONE = new TableGenerations(0, 0, 0, 0);

    public String encode() {
        return active + "," + staged + "," + highest + "," + stagedRows;
    }

    public static TableGenerations decode(String s) {
        if (s == null) {
            return NONE;
        }
        String[] p = s.split(",");
        return new TableGenerations(Long.parseLong(p[0]), Long.parseLong(p[1]), Long.parseLong(p[2]), Long.parseLong(p[3]));
    }
}

package org.chartstream.app.audit;

import java.util.List;
import org.chartstream.store.StoredChunk;

/**
 * Whether cited evidence still stands: the store's current chunks of the cited row against the cited chunk's
 * generation and source position (the position of the change that produced the row version).
 */
public final class CitationCheck {
    public enum Status { CURRENT, CHANGED, DELETED }

    /** The verdict and, when not current, what differs (generation / position / chunk count; no text). */
    public record Verdict(Status status, String detail, Long currentGeneration, String currentPosition) {
        public boolean flagged() {
            return status != Status.CURRENT;
        }
    }

    private CitationCheck() {
    }

    /** @param current the active generation's chunks of the cited row, in chunk order (empty: the row is gone) */
    public static Verdict check(CitedRow cited, List<StoredChunk> current) {
        if (current.isEmpty()) {
            return new Verdict(Status.DELETED, "row no longer in the index", null, null);
        }
        StoredChunk now = current.stream().filter(c -> c.chunkIndex() == cited.chunkIndex()).findFirst().orElse(null);
        if (now == null) {
            StoredChunk head = current.get(0);
            return new Verdict(Status.CHANGED, "row now has " + head.chunkCount() + " chunk(s); cited chunk "
                    + cited.chunkIndex() + " is gone", head.generation(), head.sourcePosition());
        }
        boolean samePosition = java.util.Objects.equals(now.sourcePosition(), cited.sourcePosition());
        if (samePosition && now.generation() == cited.generation()) {
            return new Verdict(Status.CURRENT, "", now.generation(), now.sourcePosition());
        }
        String detail = samePosition
                ? "re-indexed: generation " + cited.generation() + " -> " + now.generation()
                : "row changed at the source: position " + cited.sourcePosition() + " -> " + now.sourcePosition()
                        + (now.generation() == cited.generation() ? "" : ", generation " + cited.generation() + " -> " + now.generation());
        return new Verdict(Status.CHANGED, detail, now.generation(), now.sourcePosition());
    }
}

package org.chartstream.app.audit;

import java.util.List;
import java.util.Objects;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.query.audit.AuditRecords;

/**
 * Whether cited evidence still stands: the store's current chunk of the cited row against the cited chunk's content
 * hash and generation. Evidence without a hash (older audit records) falls back to the source position of the row
 * version. A row re-captured at a later position with the same text still stands.
 */
public final class CitationDrift {
    public enum Status { CURRENT, CHANGED, DELETED }

    /** The verdict and what differs (generation / position / content / chunk count; never text). */
    public record Verdict(Status status, String detail, Long currentGeneration, String currentPosition, String currentContentSha256) {
        public boolean flagged() {
            return status != Status.CURRENT;
        }
    }

    private CitationDrift() {
    }

    /** @param current the active generation's chunks of the cited row, in chunk order (empty: the row is gone) */
    public static Verdict check(CitedRow cited, List<StoredChunk> current) {
        if (current.isEmpty()) {
            return new Verdict(Status.DELETED, "row no longer in the index", null, null, null);
        }
        StoredChunk now = current.stream().filter(c -> c.chunkIndex() == cited.chunkIndex()).findFirst().orElse(null);
        if (now == null) {
            StoredChunk head = current.get(0);
            return new Verdict(Status.CHANGED, "row now has " + head.chunkCount() + " chunk(s); cited chunk "
                    + cited.chunkIndex() + " is gone", head.generation(), head.sourcePosition(), AuditRecords.contentSha256(head.text()));
        }
        String nowHash = AuditRecords.contentSha256(now.text());
        boolean samePosition = Objects.equals(now.sourcePosition(), cited.sourcePosition());
        boolean hashed = !cited.contentSha256().isEmpty();
        boolean sameContent = hashed ? nowHash.equals(cited.contentSha256()) : samePosition;
        String position = samePosition ? "" : "position " + cited.sourcePosition() + " -> " + now.sourcePosition();
        String content = !hashed ? "" : sameContent ? "same content" : "content differs";
        String detail;
        Status status;
        if (now.generation() != cited.generation()) {
            status = Status.CHANGED;
            detail = join("re-indexed: generation " + cited.generation() + " -> " + now.generation(), position, content);
        } else if (!sameContent) {
            status = Status.CHANGED;
            detail = join("row changed at the source: " + position, content);
        } else {
            status = Status.CURRENT;
            detail = samePosition ? "" : join("re-captured at the source: " + position, content);
        }
        return new Verdict(status, detail, now.generation(), now.sourcePosition(), nowHash);
    }

    private static String join(String... parts) {
        return String.join(", ", java.util.Arrays.stream(parts).filter(p -> !p.isEmpty()).toList());
    }
}

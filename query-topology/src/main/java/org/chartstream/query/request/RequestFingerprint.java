package org.chartstream.query.request;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeSet;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.RetrievalFilterSpec;

/**
 * "Same content" for a repeated request id: SHA-256 (hex) over the fields that decide the answer, each length-prefixed
 * so no two field lists collide: conversation id, user id, the question after {@link QuestionText#normalise}, mode,
 * top_k, and the filter (tables, source ids and row keys as sorted sets, patient). Not in it: the request id (the
 * key itself), {@code deadline_ms} (when an answer is still wanted, not which answer) and the headers
 * ({@code reply-to}, {@code correlation-id}: where the answer goes). A retry that only moves its deadline or its
 * reply topic is therefore the same request.
 */
public final class RequestFingerprint {
    private static final String VERSION = "chartstream.request-fingerprint.v1";

    private RequestFingerprint() {
    }

    public static String of(QueryRequest r) {
        MessageDigest sha = sha256();
        field(sha, VERSION);
        field(sha, r.getConversationId());
        field(sha, r.getUserId());
        field(sha, QuestionText.normalise(r.getQuestion()));
        field(sha, r.getMode().name());
        field(sha, Integer.toString(r.getTopK()));
        RetrievalFilterSpec f = r.getFilter();
        field(sha, f == null ? null : "filter");
        if (f != null) {
            set(sha, f.getTables());
            set(sha, f.getSourceIds());
            set(sha, f.getRowKeys());
            field(sha, f.getPatient());
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    private static void set(MessageDigest sha, List<String> values) {
        TreeSet<String> sorted = new TreeSet<>(values);
        field(sha, Integer.toString(sorted.size()));
        sorted.forEach(v -> field(sha, v));
    }

    private static void field(MessageDigest sha, String value) {
        if (value == null) {
            sha.update(new byte[] {0, 0, 0, 0, 0});
            return;
        }
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        sha.update((byte) 1);
        sha.update(new byte[] {(byte) (bytes.length >>> 24), (byte) (bytes.length >>> 16), (byte) (bytes.length >>> 8), (byte) bytes.length});
        sha.update(bytes);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}

package org.chartstream.schemas;

/** Names of the topics and headers the project owns (DESIGN.md §2, §6). */
public final class Topics {
    public static final String REQUESTS = "chartstream.requests";
    public static final String REPLIES = "chartstream.replies";
    public static final String AUDIT = "chartstream.audit";
    public static final String DEAD_LETTER = "chartstream.dead-letter";
    /** The index replication log: embedded chunks and generation markers; every store materialises from it. */
    public static final String INDEX = "chartstream.index";

    public static final String HEADER_REPLY_TO = "reply-to";
    public static final String HEADER_CORRELATION_ID = "correlation-id";

    private Topics() {
    }
}

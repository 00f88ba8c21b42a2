package org.chartstream.query.request;

/** Whether a topic named in a request's {@code reply-to} header exists, so a reply can be written to it. */
public interface ReplyTopics extends AutoCloseable {
    boolean exists(String topic);

    @Override
    default void close() {
    }
}

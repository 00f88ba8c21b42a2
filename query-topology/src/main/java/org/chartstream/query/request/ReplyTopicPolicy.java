package org.chartstream.query.request;

import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Where replies may go. A {@code reply-to} topic must be on the allow-list ({@code query.reply-topics}: exact names,
 * or prefixes written with a trailing {@code *}) and must not be one of the pipeline's own topics, whatever the
 * allow-list says: a reply written into the index log, the request topic, a changelog or a change topic would be a
 * record its reader cannot read (or, on the request topic, a request loop). The pipeline's own topics are every
 * {@code chartstream.*} topic outside the reply namespaces ({@link #REPLY_NAMESPACES}: index log, requests, audit,
 * dead letter, ingest status and control), Kafka Streams changelog and repartition topics (and anything named after
 * a Streams application id), the sources' Debezium topics ({@code <prefix>} and {@code <prefix>.*}: changes,
 * notifications, schema changes) and Kafka's internal {@code __*} topics (Debezium heartbeats included).
 *
 * @param allowed              allow-list entries: {@code name} or {@code prefix*}
 * @param sourceTopicPrefixes  the Debezium topic prefixes of the registered sources
 * @param applicationIds       the Kafka Streams application ids of the pipeline
 */
public record ReplyTopicPolicy(List<String> allowed, Set<String> sourceTopicPrefixes, Set<String> applicationIds) {
    /** The topics replies may go to unless configured otherwise: the default one, per-client ones, replay runs. */
    public static final List<String> DEFAULT_ALLOWED = List.of("chartstream.replies", "chartstream.replies.*", "chartstream.replay.*");
    /** The only {@code chartstream.*} names that are not the pipeline's own. */
    private static final List<String> REPLY_NAMESPACES = DEFAULT_ALLOWED;
    /** Kafka's rule for topic names. */
    private static final Pattern LEGAL_TOPIC = Pattern.compile("[a-zA-Z0-9._-]{1,249}");
    private static final Pattern LEGAL_ENTRY = Pattern.compile("[a-zA-Z0-9._-]{0,249}\\*?");

    public ReplyTopicPolicy {
        allowed = List.copyOf(allowed);
        sourceTopicPrefixes = Set.copyOf(sourceTopicPrefixes);
        applicationIds = Set.copyOf(applicationIds);
        for (String entry : allowed) {
            if (entry.isEmpty() || !LEGAL_ENTRY.matcher(entry).matches()) {
                throw new IllegalArgumentException("reply topic entry '" + entry + "' is neither a topic name nor a prefix ending in *");
            }
        }
    }

    /** The default allow-list; no sources or Streams applications named beyond the rules that need no names. */
    public static ReplyTopicPolicy defaults() {
        return new ReplyTopicPolicy(DEFAULT_ALLOWED, Set.of(), Set.of());
    }

    /** What is wrong with {@code topic} as a reply topic (the broker is not asked), or null. */
    public RequestCheck.Problem problem(String topic) {
        if (!LEGAL_TOPIC.matcher(topic).matches()) {
            return new RequestCheck.Problem("reply-to", "header 'reply-to' is not a legal topic name (letters, digits, '.', '_', '-'; at most 249)");
        }
        if (isPipelineTopic(topic)) {
            return new RequestCheck.Problem("reply-to", "header 'reply-to' names '" + topic + "', a topic of the pipeline itself"
                    + " (index log, requests, audit, dead letter, status, control, Kafka Streams, Debezium or Kafka internal topics):"
                    + " replies never go there");
        }
        if (!matchesAny(allowed, topic)) {
            return new RequestCheck.Problem("reply-to", "header 'reply-to' names topic '" + topic
                    + "', which is not an allowed reply topic (query.reply-topics: " + String.join(", ", allowed) + ")");
        }
        return null;
    }

    /** Whether {@code topic} is one of the pipeline's own topics, which replies never go to. */
    public boolean isPipelineTopic(String topic) {
        if (topic.startsWith("__") || topic.endsWith("-changelog") || topic.endsWith("-repartition")) {
            return true;
        }
        if (topic.startsWith("chartstream.") && !matchesAny(REPLY_NAMESPACES, topic)) {
            return true;
        }
        for (String id : applicationIds) {
            if (topic.startsWith(id + "-")) {
                return true;
            }
        }
        for (String prefix : sourceTopicPrefixes) {
            if (topic.equals(prefix) || topic.startsWith(prefix + ".")) {
                return true;
            }
        }
        return false;
    }

    private static boolean matchesAny(List<String> entries, String topic) {
        for (String entry : entries) {
            if (entry.endsWith("*") ? topic.startsWith(entry.substring(0, entry.length() - 1)) : topic.equals(entry)) {
                return true;
            }
        }
        return false;
    }
}

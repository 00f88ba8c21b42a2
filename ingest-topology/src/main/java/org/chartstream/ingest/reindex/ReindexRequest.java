package org.chartstream.ingest.reindex;

import java.util.Optional;

/**
 * An operator's request to rebuild one table's index as a new generation, read from the ingest control topic:
 * key {@code <source>:<table>}, value {@code reindex}.
 */
public record ReindexRequest(String sourceId, String table) {
    public static final String COMMAND = "reindex";

    public String tableKey() {
        return sourceId + ":" + table;
    }

    /** The request a control-topic record carries, or empty if the record is not a well-formed re-index request. */
    public static Optional<ReindexRequest> parse(String key, String value) {
        if (key == null || !COMMAND.equals(value == null ? null : value.trim())) {
            return Optional.empty();
        }
        int colon = key.indexOf(':');
        if (colon <= 0 || colon == key.length() - 1 || key.indexOf(':', colon + 1) >= 0) {
            return Optional.empty();
        }
        return Optional.of(new ReindexRequest(key.substring(0, colon), key.substring(colon + 1)));
    }
}

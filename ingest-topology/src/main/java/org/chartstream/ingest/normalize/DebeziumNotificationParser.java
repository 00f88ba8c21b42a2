package org.chartstream.ingest.normalize;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Optional;

/**
 * Reads Debezium's sink-channel notifications ({@code {"aggregate_type":"Initial Snapshot",
 * "type":"TABLE_SCAN_COMPLETED","additional_data":{"scanned_collection":"public.patients",
 * "total_rows_scanned":"3","status":"SUCCEEDED",…}}}). Only a successful table scan of a registered table matters
 * here; every other notification (started, in progress, completed, incremental snapshots) is empty.
 */
public final class DebeziumNotificationParser {
    private static final ObjectMapper JSON = new ObjectMapper();

    private DebeziumNotificationParser() {
    }

    /**
     * @throws MalformedChangeException the value is not a JSON notification, or a table-scan notice lacks its
     *                                  table or row count
     */
    public static Optional<TableScanCompleted> tableScanCompleted(SourceRegistration source, String value) {
        JsonNode notification;
        try {
            notification = value == null ? null : JSON.readTree(value);
        } catch (JsonProcessingException e) {
            throw new MalformedChangeException("notification on " + source.notificationTopic() + " is not JSON: "
                    + e.getOriginalMessage());
        }
        if (notification == null || !notification.isObject()) {
            throw new MalformedChangeException("notification on " + source.notificationTopic() + " is not a JSON object");
        }
        if (!"Initial Snapshot".equals(notification.path("aggregate_type").asText())
                || !"TABLE_SCAN_COMPLETED".equals(notification.path("type").asText())) {
            return Optional.empty();
        }
        JsonNode data = notification.path("additional_data");
        if (!"SUCCEEDED".equals(data.path("status").asText())) {
            return Optional.empty(); // a failed scan is retried by Debezium with a new snapshot
        }
        String collection = data.path("scanned_collection").asText("");
        String rows = data.path("total_rows_scanned").asText("");
        if (collection.isEmpty() || !rows.matches("[0-9]{1,18}")) {
            throw new MalformedChangeException("table-scan notification on " + source.notificationTopic()
                    + " lacks 'scanned_collection' or a numeric 'total_rows_scanned'");
        }
        // "public.patients" (PostgreSQL), "ehr.patients" (MariaDB), "ehr.dbo.patients" (SQL Server)
        String table = collection.substring(collection.lastIndexOf('.') + 1);
        if (source.table(table).isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new TableScanCompleted(source.sourceId(), table, Long.parseLong(rows)));
    }
}

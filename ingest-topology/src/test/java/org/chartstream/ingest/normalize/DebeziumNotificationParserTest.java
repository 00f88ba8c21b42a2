package org.chartstream.ingest.normalize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.chartstream.ingest.project.TableProjection;
import org.junit.jupiter.api.Test;

class DebeziumNotificationParserTest {
    private static final SourceRegistration EHR = new SourceRegistration("ehr", "postgres", "cdc", null,
            Map.of("patients", new TableProjection("patients", List.of(), Set.of(), "patient_id")));

    /** As Debezium 3.5's sink channel wrote it (EmbeddedCdcIT checks the live shape). */
    private static String notice(String type, String collection, String rows, String status) {
        return "{\"id\":\"199b297f\",\"type\":\"" + type + "\",\"aggregate_type\":\"Initial Snapshot\","
                + "\"additional_data\":{\"scanned_collection\":\"" + collection + "\",\"connector_name\":\"cdc\","
                + "\"total_rows_scanned\":\"" + rows + "\",\"data_collections\":\"public.patients\",\"status\":\""
                + status + "\"},\"timestamp\":1796073162373}";
    }

    @Test
    void aSuccessfulTableScanOfARegisteredTableGivesItsRowCount() {
        assertThat(DebeziumNotificationParser.tableScanCompleted(EHR, notice("TABLE_SCAN_COMPLETED", "public.patients", "1", "SUCCEEDED")))
                .contains(new TableScanCompleted("ehr", "patients", 1));
        assertThat(EHR.notificationTopic()).isEqualTo("cdc.debezium-notifications");
    }

    @Test
    void otherNotificationsFailedScansAndUnregisteredTablesGiveNothing() {
        assertThat(DebeziumNotificationParser.tableScanCompleted(EHR, notice("IN_PROGRESS", "public.patients", "1", "SUCCEEDED"))).isEmpty();
        assertThat(DebeziumNotificationParser.tableScanCompleted(EHR, notice("TABLE_SCAN_COMPLETED", "public.patients", "1", "SQL_EXCEPTION"))).isEmpty();
        assertThat(DebeziumNotificationParser.tableScanCompleted(EHR, notice("TABLE_SCAN_COMPLETED", "public.billing", "4", "SUCCEEDED"))).isEmpty();
    }

    @Test
    void aMalformedNotificationIsNamed() {
        assertThatThrownBy(() -> DebeziumNotificationParser.tableScanCompleted(EHR, "not json"))
                .isInstanceOf(MalformedChangeException.class).hasMessageContaining("cdc.debezium-notifications");
        assertThatThrownBy(() -> DebeziumNotificationParser.tableScanCompleted(EHR, notice("TABLE_SCAN_COMPLETED", "public.patients", "many", "SUCCEEDED")))
                .isInstanceOf(MalformedChangeException.class).hasMessageContaining("total_rows_scanned");
    }
}

package org.chartstream.ingest.normalize;

import java.util.Map;
import java.util.Optional;
import org.chartstream.core.binding.SourceBinding;
import org.chartstream.ingest.project.PatientIdentityColumns;
import org.chartstream.ingest.project.TableProjection;

/**
 * A registered clinical source as the ingest side sees it: its Debezium topic prefix, its kind, where it keeps
 * patient identity (null if nowhere) and the tables (with their projections) that may be indexed. Events for
 * any other table are dead-lettered.
 */
public record SourceRegistration(String sourceId, String kind, String topicPrefix,
                                 PatientIdentityColumns patientIdentity, Map<String, TableProjection> tables,
                                 SourceBinding binding) {
    /** The connector side's {@code DebeziumConfigs.NOTIFICATION_TOPIC_SUFFIX}; the app checks that both agree. */
    public static final String NOTIFICATION_TOPIC_SUFFIX = "debezium-notifications";

    public SourceRegistration {
        tables = Map.copyOf(tables);
        if (binding == null) {
            binding = SourceBinding.of(tables.values().stream().map(TableProjection::binding).toList());
        }
    }

    /** A source bound by its tables' projections alone (no dictionaries). */
    public SourceRegistration(String sourceId, String kind, String topicPrefix, PatientIdentityColumns patientIdentity,
                              Map<String, TableProjection> tables) {
        this(sourceId, kind, topicPrefix, patientIdentity, tables, null);
    }

    /** The topic this source's Debezium notifications (snapshot progress) arrive on. */
    public String notificationTopic() {
        return topicPrefix + "." + NOTIFICATION_TOPIC_SUFFIX;
    }

    public Optional<TableProjection> table(String name) {
        return Optional.ofNullable(tables.get(name));
    }
}

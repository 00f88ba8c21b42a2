package org.chartstream.ingest.normalize;

import java.util.Map;
import java.util.Optional;
import org.chartstream.ingest.project.PatientIdentityColumns;
import org.chartstream.ingest.project.TableProjection;

/**
 * A registered clinical source as the ingest side sees it: its Debezium topic prefix, its kind, where it keeps
 * patient identity (null if nowhere) and the tables (with their projections) that may be indexed. Events for
 * any other table are dead-lettered.
 */
public record SourceRegistration(String sourceId, String kind, String topicPrefix,
                                 PatientIdentityColumns patientIdentity, Map<String, TableProjection> tables) {

    public SourceRegistration {
        tables = Map.copyOf(tables);
    }

    public Optional<TableProjection> table(String name) {
        return Optional.ofNullable(tables.get(name));
    }
}

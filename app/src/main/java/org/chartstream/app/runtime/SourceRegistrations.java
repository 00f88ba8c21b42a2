package org.chartstream.app.runtime;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.chartstream.app.config.ChartstreamConfig;
import org.chartstream.app.config.ConfigException;
import org.chartstream.ingest.normalize.SourceRegistration;
import org.chartstream.ingest.project.PatientIdentityColumns;
import org.chartstream.ingest.project.TableProjection;

/** Builds the ingest side's source registration from the configuration. */
public final class SourceRegistrations {
    private SourceRegistrations() {
    }

    public static SourceRegistration from(ChartstreamConfig config) {
        String patientTable = config.string("source.patient-table");
        String patientId = config.string("source.patient-id-column");
        Map<String, Set<String>> excluded = new LinkedHashMap<>();
        for (String tableField : config.list("source.excluded-fields")) {
            int dot = tableField.indexOf('.');
            if (dot <= 0 || dot == tableField.length() - 1) {
                throw new ConfigException("configuration 'source.excluded-fields' entry '" + tableField + "' is not table.field");
            }
            excluded.computeIfAbsent(tableField.substring(0, dot), t -> new HashSet<>()).add(tableField.substring(dot + 1));
        }
        Map<String, TableProjection> tables = new LinkedHashMap<>();
        for (String table : config.tables()) {
            tables.put(table, new TableProjection(table, List.of(), excluded.getOrDefault(table, Set.of()), patientId));
        }
        PatientIdentityColumns identity = tables.containsKey(patientTable)
                ? new PatientIdentityColumns(patientTable, patientId, config.list("source.patient-name-columns"),
                        config.string("source.patient-number-column"))
                : null;
        return new SourceRegistration(config.string("source.id"), config.string("source.kind"),
                config.string("source.topic-prefix"), identity, tables);
    }
}

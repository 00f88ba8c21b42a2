package org.chartstream.runtime;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.chartstream.connectors.DebeziumConfigs;
import org.chartstream.connectors.SourceConnection;
import org.chartstream.connectors.SourceKind;
import org.chartstream.core.store.TableRef;
import org.chartstream.ingest.normalize.SourceRegistration;
import org.chartstream.ingest.project.PatientIdentityColumns;
import org.chartstream.ingest.project.TableProjection;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.runtime.config.ConfigException;

/** Builds the registered sources (ingest side and Debezium connection) from the configuration. */
public final class SourceRegistrations {
    private SourceRegistrations() {
    }

    /** The first registered source (the only one unless {@code sources} lists several). */
    public static SourceRegistration from(ChartstreamConfig config) {
        return all(config).get(0);
    }

    public static List<SourceRegistration> all(ChartstreamConfig config) {
        return config.sourceIds().stream().map(id -> registration(config, id)).toList();
    }

    public static SourceRegistration registration(ChartstreamConfig config, String id) {
        String patientTable = config.sourceValue(id, "patient-table");
        String patientId = config.sourceValue(id, "patient-id-column");
        Map<String, Set<String>> excluded = excludedFields(config.sourceKey(id, "excluded-fields"),
                config.sourceList(id, "excluded-fields"));
        Map<String, TableProjection> tables = new LinkedHashMap<>();
        for (String table : config.sourceList(id, "tables")) {
            tables.put(table, new TableProjection(table, config.allowedFields(id, table),
                    excluded.getOrDefault(table, Set.of()), patientId));
        }
        PatientIdentityColumns identity = tables.containsKey(patientTable)
                ? new PatientIdentityColumns(patientTable, patientId, config.sourceList(id, "patient-name-columns"),
                        config.sourceValue(id, "patient-number-column"))
                : null;
        return new SourceRegistration(id, kind(config, id).name().toLowerCase(Locale.ROOT),
                config.sourceValue(id, "topic-prefix"), identity, tables);
    }

    /** {@code table.field} entries grouped by table. */
    static Map<String, Set<String>> excludedFields(String key, List<String> entries) {
        Map<String, Set<String>> excluded = new LinkedHashMap<>();
        for (String tableField : entries) {
            int dot = tableField.indexOf('.');
            if (dot <= 0 || dot == tableField.length() - 1) {
                throw new ConfigException("configuration '" + key + "' entry '" + tableField + "' is not table.field");
            }
            excluded.computeIfAbsent(tableField.substring(0, dot), t -> new HashSet<>()).add(tableField.substring(dot + 1));
        }
        return excluded;
    }

    public static SourceKind kind(ChartstreamConfig config, String id) {
        return SourceKind.valueOf(config.sourceValue(id, "kind").toUpperCase(Locale.ROOT));
    }

    /**
     * Where Debezium reads the source; empty for a postgres source without a host: the embedded PostgreSQL that
     * the runtime starts itself.
     */
    public static Optional<SourceConnection> connection(ChartstreamConfig config, String id) {
        SourceKind kind = kind(config, id);
        String host = config.sourceValue(id, "host");
        if (host.isEmpty()) {
            if (kind != SourceKind.POSTGRES) {
                throw new ConfigException("configuration '" + config.sourceKey(id, "host") + "' is required for a "
                        + kind.name().toLowerCase(Locale.ROOT) + " source (only PostgreSQL can run embedded)");
            }
            return Optional.empty();
        }
        int port = Integer.parseInt(config.sourceValue(id, "port"));
        String database = config.sourceValue(id, "database");
        String user = config.sourceValue(id, "user");
        if (database.isEmpty() || user.isEmpty()) {
            throw new ConfigException("source " + id + " needs '" + config.sourceKey(id, "database") + "' and '"
                    + config.sourceKey(id, "user") + "' with its host");
        }
        String password = config.sourceValue(id, "password");
        String schema = config.sourceValue(id, "schema");
        return Optional.of(SourceConnection.of(id, kind, host, port == 0 ? kind.defaultPort() : port, database, user,
                password.isEmpty() ? null : password, schema.isEmpty() ? null : schema, config.sourceList(id, "tables")));
    }

    /**
     * The change topic of every registered table, keyed {@code source:table}, in configuration order (a postgres
     * source without a host is the embedded PostgreSQL with its default connection).
     */
    public static Map<String, String> changeTopics(ChartstreamConfig config) {
        Map<String, String> topics = new LinkedHashMap<>();
        for (SourceRegistration source : all(config)) {
            List<String> names = config.sourceList(source.sourceId(), "tables");
            String schema = config.sourceValue(source.sourceId(), "schema");
            SourceConnection connection = connection(config, source.sourceId()).orElse(
                    SourceConnection.of(source.sourceId(), SourceKind.POSTGRES, "127.0.0.1", 5432, "postgres", "postgres",
                            null, schema.isEmpty() ? null : schema, names));
            for (String table : names) {
                topics.put(new TableRef(source.sourceId(), table).id(), DebeziumConfigs.topicFor(connection, source.topicPrefix(), table));
            }
        }
        return topics;
    }
}

package org.chartstream.runtime;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.chartstream.connectors.DebeziumConfigs;
import org.chartstream.connectors.SourceConnection;
import org.chartstream.connectors.SourceKind;
import org.chartstream.core.binding.SourceBinding;
import org.chartstream.core.binding.TableBinding;
import org.chartstream.core.store.TableRef;
import org.chartstream.ingest.normalize.SourceRegistration;
import org.chartstream.ingest.project.PatientIdentityColumns;
import org.chartstream.ingest.project.TableProjection;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.runtime.config.ConfigException;
import org.chartstream.runtime.config.SourceBindings;

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

    /**
     * Source {@code id} as its binding describes it: a projection per bound table (dictionaries included: their
     * changes arrive too, and their role says they are joined, not indexed), the patient identity columns of its
     * patient table (none without one) and the binding itself.
     */
    public static SourceRegistration registration(ChartstreamConfig config, String id) {
        SourceBinding binding = SourceBindings.of(config, id);
        Map<String, TableProjection> tables = new LinkedHashMap<>();
        binding.tables().values().forEach(table -> tables.put(table.table(), TableProjection.of(table)));
        PatientIdentityColumns identity = binding.patientTable()
                .map(patients -> new PatientIdentityColumns(patients.table(), patients.patientColumn(), patients.nameColumns(),
                        patients.numberColumn() == null ? "" : patients.numberColumn()))
                .orElse(null);
        return new SourceRegistration(id, kind(config, id).name().toLowerCase(Locale.ROOT),
                config.sourceValue(id, "topic-prefix"), identity, tables, binding);
    }

    /**
     * The tables of a registered source whose rows are indexed, in binding order: every table but the dictionaries
     * (their rows are joined into the rows that use their codes, so an index never holds them and a wait for every
     * source row to be searchable does not count them).
     */
    public static List<String> indexedTables(SourceRegistration source) {
        return source.binding().indexed().stream().map(TableBinding::table).filter(source.tables()::containsKey).toList();
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

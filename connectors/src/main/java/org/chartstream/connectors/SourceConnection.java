package org.chartstream.connectors;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where and how to read one clinical database.
 *
 * @param sourceId  stable identifier of the source ({@code [A-Za-z0-9_-]+}); part of chunk ids, replication slot,
 *                  publication, offsets file and server id, so it must not change once data has been indexed
 * @param kind      database kind
 * @param host      host name or address
 * @param port      TCP port
 * @param database  database name (PostgreSQL database, MariaDB/MySQL database, SQL Server database)
 * @param user      user Debezium connects as
 * @param password  password, may be null (for example trust authentication); never printed by {@link #toString()}
 * @param schema    schema holding the tables (PostgreSQL, SQL Server); null means the kind's default
 *                  ({@code public}, {@code dbo}); ignored for MariaDB/MySQL, where the database is the namespace
 * @param tables    unqualified table names in snapshot order: parent tables (patients) first, so child rows can be
 *                  enriched with the patient's identity when they arrive
 * @param extra     additional Debezium properties; applied last, so they override any default
 */
public record SourceConnection(String sourceId, SourceKind kind, String host, int port, String database,
                               String user, String password, String schema, List<String> tables,
                               Map<String, String> extra) {

    private static final Pattern SOURCE_ID = Pattern.compile("[A-Za-z0-9_-]+");
    private static final Pattern TABLE = Pattern.compile("[A-Za-z0-9_$]+");

    public SourceConnection {
        Objects.requireNonNull(sourceId, "sourceId");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(tables, "tables");
        if (!SOURCE_ID.matcher(sourceId).matches()) {
            throw new IllegalArgumentException("sourceId must match [A-Za-z0-9_-]+: '" + sourceId + "'");
        }
        if (port <= 0 || port > 65535) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
        if (tables.isEmpty()) {
            throw new IllegalArgumentException("at least one table is required for source " + sourceId);
        }
        for (String t : tables) {
            if (t == null || !TABLE.matcher(t).matches()) {
                throw new IllegalArgumentException("table names are unqualified identifiers ([A-Za-z0-9_$]+): '"
                        + t + "' in source " + sourceId);
            }
        }
        if (tables.stream().distinct().count() != tables.size()) {
            throw new IllegalArgumentException("duplicate table in source " + sourceId + ": " + tables);
        }
        tables = List.copyOf(tables); // keeps the order
        extra = extra == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(extra));
    }

    /** A source with no extra properties. */
    public static SourceConnection of(String sourceId, SourceKind kind, String host, int port, String database,
                                      String user, String password, String schema, List<String> tables) {
        return new SourceConnection(sourceId, kind, host, port, database, user, password, schema, tables, Map.of());
    }

    /**
     * The middle part of topic names and of qualified table names: the schema for PostgreSQL and SQL Server, the
     * database for MariaDB and MySQL.
     */
    public String namespace() {
        if (kind.usesBinlog()) {
            return database;
        }
        return schema == null || schema.isBlank() ? kind.defaultSchema() : schema;
    }

    /** {@code namespace.table} for every table, in the configured order. */
    public List<String> qualifiedTables() {
        String ns = namespace();
        return tables.stream().map(t -> ns + "." + t).toList();
    }

    /** A copy with other extra properties. */
    public SourceConnection withExtra(Map<String, String> newExtra) {
        return new SourceConnection(sourceId, kind, host, port, database, user, password, schema, tables, newExtra);
    }

    @Override
    public String toString() {
        // never print the password; extra may hold secrets too (only its keys are shown)
        return "SourceConnection[sourceId=" + sourceId + ", kind=" + kind + ", host=" + host + ", port=" + port
                + ", database=" + database + ", user=" + user + ", password=" + (password == null ? "null" : "***")
                + ", schema=" + schema + ", tables=" + tables + ", extra=" + extra.keySet() + "]";
    }
}

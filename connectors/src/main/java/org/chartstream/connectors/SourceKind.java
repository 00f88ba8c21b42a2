package org.chartstream.connectors;

/**
 * The kinds of clinical database that chartstream reads through Debezium change-data-capture.
 *
 * <p>The connector class is the one Debezium 3.5.0.Final names for the kind. Only the PostgreSQL and MariaDB
 * connectors are on this module's classpath; the MySQL and SQL Server connectors are configured (see
 * {@link DebeziumConfigs}) for a site that runs them on Kafka Connect or adds their jars.
 */
public enum SourceKind {
    POSTGRES("io.debezium.connector.postgresql.PostgresConnector", IdleWaitingPostgresConnector.class.getName(), 5432, "public"),
    MARIADB("io.debezium.connector.mariadb.MariaDbConnector", IdleWaitingMariaDbConnector.class.getName(), 3306, null),
    MYSQL("io.debezium.connector.mysql.MySqlConnector", "io.debezium.connector.mysql.MySqlConnector", 3306, null),
    SQLSERVER("io.debezium.connector.sqlserver.SqlServerConnector", "io.debezium.connector.sqlserver.SqlServerConnector", 1433, "dbo");

    private final String connectorClass;
    private final String embeddedConnectorClass;
    private final int defaultPort;
    private final String defaultSchema;

    SourceKind(String connectorClass, String embeddedConnectorClass, int defaultPort, String defaultSchema) {
        this.connectorClass = connectorClass;
        this.embeddedConnectorClass = embeddedConnectorClass;
        this.defaultPort = defaultPort;
        this.defaultSchema = defaultSchema;
    }

    /** Fully qualified Debezium connector class (what a Kafka Connect deployment names). */
    public String connectorClass() {
        return connectorClass;
    }

    /**
     * The connector class the embedded engine runs: for the kinds on this module's classpath Debezium's connector
     * with {@link IdleQueueWait} in front of its task's poll, otherwise Debezium's own.
     */
    public String embeddedConnectorClass() {
        return embeddedConnectorClass;
    }

    public int defaultPort() {
        return defaultPort;
    }

    /** The schema used when a source names none ({@code public}, {@code dbo}); null for the binlog kinds. */
    public String defaultSchema() {
        return defaultSchema;
    }

    /**
     * True for MariaDB and MySQL: a table lives directly in a database (no schema level), the connector reads the
     * binlog and keeps a schema history.
     */
    public boolean usesBinlog() {
        return this == MARIADB || this == MYSQL;
    }
}

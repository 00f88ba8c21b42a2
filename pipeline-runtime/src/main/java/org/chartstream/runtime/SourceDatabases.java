package org.chartstream.runtime;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import org.chartstream.connectors.SourceConnection;

/** Plain JDBC access to a registered source, for row counts and checks (never used to change the source). */
public final class SourceDatabases {
    private SourceDatabases() {
    }

    public static String jdbcUrl(SourceConnection c) {
        return switch (c.kind()) {
            case POSTGRES -> "jdbc:postgresql://" + c.host() + ":" + c.port() + "/" + c.database();
            case MARIADB -> "jdbc:mariadb://" + c.host() + ":" + c.port() + "/" + c.database();
            case MYSQL -> "jdbc:mysql://" + c.host() + ":" + c.port() + "/" + c.database();
            case SQLSERVER -> "jdbc:sqlserver://" + c.host() + ":" + c.port() + ";databaseName=" + c.database();
        };
    }

    public static Connection open(SourceConnection c) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", c.user());
        if (c.password() != null) {
            p.setProperty("password", c.password());
        }
        return DriverManager.getConnection(jdbcUrl(c), p);
    }

    /** The table's name quoted for the source's SQL dialect, qualified by its namespace. */
    public static String qualifiedTable(SourceConnection c, String table) {
        if (!table.matches("[A-Za-z_][A-Za-z0-9_$]*")) {
            throw new IllegalArgumentException("table name '" + table + "' is not a plain SQL identifier");
        }
        return switch (c.kind()) {
            case MARIADB, MYSQL -> "`" + c.namespace() + "`.`" + table + "`";
            case SQLSERVER -> "[" + c.namespace() + "].[" + table + "]";
            case POSTGRES -> "\"" + c.namespace() + "\".\"" + table + "\"";
        };
    }
}

package org.chartstream.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.chartstream.connectors.SourceConnection;
import org.chartstream.embedded.EmbeddedPostgresSource;

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

    /**
     * Fills a just created embedded source database. A load that fails stops the database and removes its
     * directory, so that the next start loads it again instead of capturing a half-filled source.
     */
    static void loadFresh(EmbeddedPostgresSource postgres, PipelineRuntime.SourceLoader loader, Consumer<String> progress)
            throws IOException, SQLException {
        try (Connection c = postgres.connection()) {
            Map<String, Integer> counts = loader.load(c);
            progress.accept("source database loaded: " + counts);
        } catch (SQLException | RuntimeException e) {
            postgres.close();
            try (Stream<Path> paths = Files.walk(postgres.directory())) {
                for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
            throw e;
        }
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

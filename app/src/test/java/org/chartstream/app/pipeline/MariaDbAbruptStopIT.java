package org.chartstream.app.pipeline;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import org.chartstream.connectors.SourceKind;
import org.chartstream.embedded.MariaDbServer;

/** {@link AbruptStopConvergence} on Debian's MariaDB, started by the test with a ROW binlog. */
class MariaDbAbruptStopIT extends AbruptStopConvergence {
    @Override
    SourceKind kind() {
        return SourceKind.MARIADB;
    }

    @Override
    SourceDatabase startDatabase(Path dir) throws Exception {
        MariaDbServer server = MariaDbServer.start("clinic");
        return new SourceDatabase() {
            @Override
            public Connection open() throws SQLException {
                return server.connection();
            }

            @Override
            public Map<String, String> configuration() {
                return Map.of("source.kind", "mariadb", "source.host", "127.0.0.1", "source.port", Integer.toString(server.port()),
                        "source.database", server.database(), "source.user", MariaDbServer.USER, "source.password", MariaDbServer.PASSWORD);
            }

            @Override
            public void restart() throws Exception {
                server.restart();
            }

            @Override
            public void close() {
                server.close();
            }
        };
    }
}

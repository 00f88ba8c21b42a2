package org.chartstream.app.pipeline;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import org.chartstream.connectors.SourceKind;
import org.chartstream.embedded.EmbeddedPostgresSource;

/** {@link AbruptStopConvergence} on the embedded PostgreSQL (pgoutput). */
class PostgresAbruptStopIT extends AbruptStopConvergence {
    @Override
    SourceKind kind() {
        return SourceKind.POSTGRES;
    }

    /** The source.* keys that point a pipeline at {@code pg}. */
    static Map<String, String> sourceConfiguration(EmbeddedPostgresSource pg) {
        return Map.of("source.kind", "postgres", "source.host", "127.0.0.1", "source.port", Integer.toString(pg.port()),
                "source.database", EmbeddedPostgresSource.DATABASE, "source.user", EmbeddedPostgresSource.SUPERUSER);
    }

    @Override
    SourceDatabase startDatabase(Path dir) throws Exception {
        java.util.concurrent.atomic.AtomicReference<EmbeddedPostgresSource> pg =
                new java.util.concurrent.atomic.AtomicReference<>(EmbeddedPostgresSource.start(dir.resolve("pg")));
        return new SourceDatabase() {
            @Override
            public Connection open() throws SQLException {
                return pg.get().connection();
            }

            @Override
            public Map<String, String> configuration() {
                return sourceConfiguration(pg.get());
            }

            @Override
            public void restart() throws Exception {
                pg.set(pg.get().restart());
            }

            @Override
            public void close() throws Exception {
                pg.get().close();
            }
        };
    }
}

package org.chartstream.embedded;

import java.nio.file.Files;
import java.nio.file.Path;

/** An embedded PostgreSQL started by a JVM of its own, so that a test can kill that JVM (argument: the directory). */
public final class PostgresChild {
    private PostgresChild() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        EmbeddedPostgresSource pg = EmbeddedPostgresSource.start(dir);
        Files.writeString(dir.resolve("child.ready"), Integer.toString(pg.port()));
        Thread.sleep(Long.MAX_VALUE);
    }
}

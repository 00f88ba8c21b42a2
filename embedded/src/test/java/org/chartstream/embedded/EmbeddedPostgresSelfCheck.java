package org.chartstream.embedded;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * Starts an {@link EmbeddedPostgresSource} twice on the same directory and prints what it found, one
 * {@code KEY=value} per line. Run in a separate JVM by {@link EmbeddedPostgresSourceIT} (with a PATH whose
 * {@code unshare} fails) and usable by hand: {@code java -cp ... org.chartstream.embedded.EmbeddedPostgresSelfCheck DIR}.
 */
public final class EmbeddedPostgresSelfCheck {

    private EmbeddedPostgresSelfCheck() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args.length > 0 ? args[0] : "target/pg-selfcheck").toAbsolutePath();
        long t0 = System.nanoTime();
        try (EmbeddedPostgresSource pg = EmbeddedPostgresSource.start(dir)) {
            System.out.println("FIRST_START_MS=" + (System.nanoTime() - t0) / 1_000_000);
            System.out.println("OWNER=" + pg.processOwner());
            try (Connection c = pg.connection(); Statement s = c.createStatement()) {
                System.out.println("WAL=" + single(s, "show wal_level"));
                System.out.println("SLOTS=" + single(s, "show max_replication_slots"));
                s.execute("create table if not exists selfcheck(id int primary key, note text)");
                s.execute("insert into selfcheck values (1, 'kept') on conflict do nothing");
            }
            System.out.println("DATA_UID=" + Files.getAttribute(pg.dataDirectory().resolve("PG_VERSION"), "unix:uid"));
        }
        long t1 = System.nanoTime();
        try (EmbeddedPostgresSource pg = EmbeddedPostgresSource.start(dir)) {
            System.out.println("RESTART_MS=" + (System.nanoTime() - t1) / 1_000_000);
            try (Connection c = pg.connection(); Statement s = c.createStatement()) {
                System.out.println("ROWS=" + single(s, "select count(*) from selfcheck"));
            }
        }
        System.out.println("OK");
    }

    private static String single(Statement s, String sql) throws Exception {
        try (ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getString(1);
        }
    }
}

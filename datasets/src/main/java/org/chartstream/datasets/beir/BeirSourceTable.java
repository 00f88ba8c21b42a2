package org.chartstream.datasets.beir;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

/**
 * A BEIR corpus as a source table of the embedded PostgreSQL: {@code beir_docs(doc_id text primary key, title text,
 * text text)}, so it reaches the index through the real ingest path (Debezium snapshot, ingest topology, index log,
 * store). The row key is the document id; the title and the text become {@code title:} and {@code text:} lines.
 */
public final class BeirSourceTable {
    public static final String TABLE = "beir_docs";
    private static final int BATCH = 500;

    private BeirSourceTable() {
    }

    /** Creates the table and inserts every document; returns the row count for the runtime's progress line. */
    public static Map<String, Integer> load(Connection c, BeirDataset dataset) throws SQLException {
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(false);
        try (Statement ddl = c.createStatement()) {
            ddl.execute("create table if not exists public." + TABLE + " (doc_id text primary key, title text, text text)");
            ddl.execute("alter table public." + TABLE + " replica identity full");
            try (PreparedStatement insert = c.prepareStatement("insert into public." + TABLE + " (doc_id, title, text) values (?, ?, ?)")) {
                int pending = 0;
                for (BeirDataset.Document d : dataset.corpus()) {
                    insert.setString(1, d.id());
                    insert.setString(2, d.title().isBlank() ? null : d.title());
                    insert.setString(3, d.text());
                    insert.addBatch();
                    if (++pending == BATCH) {
                        insert.executeBatch();
                        pending = 0;
                    }
                }
                if (pending > 0) {
                    insert.executeBatch();
                }
            }
            c.commit();
        } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(autoCommit);
        }
        return Map.of(TABLE, dataset.corpus().size());
    }
}

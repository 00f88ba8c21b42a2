package org.chartstream.app.pipeline;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Keeps changing the source table from its own thread: updates, inserts, deletes and primary-key changes, one
 * committed statement at a time, and after {@value #SCHEMA_CHANGE_AT} changes a schema change (a new column that
 * later updates fill; see {@link #withoutSchemaChange()}). Remembers the ids it deleted or moved away from (they must not stay searchable).
 */
final class ChangeWriter implements AutoCloseable {
    interface ConnectionFactory {
        Connection open() throws SQLException;
    }

    static final int SCHEMA_CHANGE_AT = 20;
    private static final String[] TRIAGE = {"routine", "urgent", "emergent"};
    private final ConnectionFactory connections;
    private final Random random;
    private final int pauseMs;
    private final AtomicLong changes = new AtomicLong();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final List<Integer> gone = java.util.Collections.synchronizedList(new ArrayList<>());
    private final List<Long> changeTimes = java.util.Collections.synchronizedList(new ArrayList<>());
    private volatile boolean running = true;
    private boolean schemaChange = true;
    private final Thread thread;
    private int nextId;

    ChangeWriter(ConnectionFactory connections, long seed, int firstNewId, int pauseMs) {
        this.connections = connections;
        this.random = new Random(seed);
        this.nextId = firstNewId;
        this.pauseMs = pauseMs;
        this.thread = new Thread(this::run, "change-writer");
    }

    /** No schema change and no writes to the added column (for a writer after one that has added it, or none). */
    ChangeWriter withoutSchemaChange() {
        schemaChange = false;
        return this;
    }

    ChangeWriter start() {
        thread.start();
        return this;
    }

    private void run() {
        try (Connection c = connections.open(); Statement s = c.createStatement()) {
            while (running) {
                List<Integer> ids = new ArrayList<>();
                try (ResultSet rs = s.executeQuery("select note_id from clinical_notes order by note_id")) {
                    while (rs.next()) {
                        ids.add(rs.getInt(1));
                    }
                }
                int pick = ids.isEmpty() ? -1 : ids.get(random.nextInt(ids.size()));
                int op = random.nextInt(10);
                boolean triage = schemaChange && changes.get() > SCHEMA_CHANGE_AT;
                if (schemaChange && changes.get() == SCHEMA_CHANGE_AT) {
                    s.execute("alter table clinical_notes add column triage varchar(20)");
                } else if (op < 5 && pick >= 0) {
                    try (PreparedStatement ps = c.prepareStatement("update clinical_notes set version = version + 1, note_text = ?"
                            + (triage ? ", triage = '" + TRIAGE[random.nextInt(TRIAGE.length)] + "'" : "") + " where note_id = ?")) {
                        ps.setString(1, NotesTable.text(pick, 2 + random.nextInt(1000)));
                        ps.setInt(2, pick);
                        ps.executeUpdate();
                    }
                } else if (op < 7 || pick < 0) {
                    NotesTable.insert(c, nextId++, 1);
                } else if (op < 9) {
                    s.executeUpdate("delete from clinical_notes where note_id = " + pick);
                    gone.add(pick);
                } else {
                    // a primary-key change: Debezium emits a delete of the old key and a create of the new one
                    int moved = nextId++;
                    s.executeUpdate("update clinical_notes set note_id = " + moved + ", title = '" + NotesTable.title(moved)
                            + "' where note_id = " + pick);
                    gone.add(pick);
                }
                changes.incrementAndGet();
                changeTimes.add(System.currentTimeMillis());
                Thread.sleep(pauseMs);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (SQLException | RuntimeException e) {
            failure.set(e);
        }
    }

    long changes() {
        return changes.get();
    }

    /** Changes committed after {@code timeMs}. */
    long changesAfter(long timeMs) {
        synchronized (changeTimes) {
            return changeTimes.stream().filter(t -> t > timeMs).count();
        }
    }

    List<Integer> goneIds() {
        synchronized (gone) {
            return List.copyOf(gone);
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(30_000);
        if (failure.get() != null) {
            throw new AssertionError("the change writer failed", failure.get());
        }
    }
}

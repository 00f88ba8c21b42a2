package org.chartstream.app.pipeline;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.chartstream.connectors.SourceKind;

/**
 * The test table: {@code clinical_notes(note_id, title, note_text, version)}, the same on PostgreSQL and MariaDB.
 * Every title carries a word unique to the row ({@code n<id>x}) so a lexical search can tell whether a row is
 * still searchable.
 */
final class NotesTable {
    static final String TABLE = "clinical_notes";
    /**
     * The table's field allow-list, with {@code triage}: the column {@link ChangeWriter} adds by a schema change is
     * indexed only because it is listed (without a list a column added later is held back until allow-listed).
     */
    static final String FIELDS = "note_id,title,note_text,version,triage";
    private static final String[] FINDINGS = {"persistent dry cough", "knee pain after a fall", "elevated blood pressure",
            "migraine with aura", "seasonal allergic rhinitis", "type 2 diabetes follow-up", "lower back strain",
            "iron deficiency anaemia", "mild asthma exacerbation", "routine annual examination"};

    private NotesTable() {
    }

    static void create(Connection c, SourceKind kind) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("create table clinical_notes (note_id int primary key, title varchar(200), note_text varchar(2000), version int)");
            if (kind == SourceKind.POSTGRES) {
                s.execute("alter table clinical_notes replica identity full");
            }
        }
    }

    static String title(int id) {
        return "chartnote n" + id + "x";
    }

    static String text(int id, int version) {
        return "Patient seen for " + FINDINGS[Math.floorMod(id * 7 + version, FINDINGS.length)] + " (revision " + version + ").";
    }

    static void insert(Connection c, int fromId, int count) throws SQLException {
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try (PreparedStatement ps = c.prepareStatement("insert into clinical_notes (note_id, title, note_text, version) values (?, ?, ?, ?)")) {
            for (int id = fromId; id < fromId + count; id++) {
                ps.setInt(1, id);
                ps.setString(2, title(id));
                ps.setString(3, text(id, 1));
                ps.setInt(4, 1);
                ps.addBatch();
            }
            ps.executeBatch();
            c.commit();
        } finally {
            c.setAutoCommit(auto);
        }
    }

    /** Every row as column → text (what Debezium renders for these column types), by row key. */
    static Map<String, Map<String, String>> rows(Connection c) throws SQLException {
        Map<String, Map<String, String>> rows = new TreeMap<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("select * from clinical_notes")) {
            ResultSetMetaData meta = rs.getMetaData();
            while (rs.next()) {
                Map<String, String> row = new LinkedHashMap<>();
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    row.put(meta.getColumnLabel(i).toLowerCase(java.util.Locale.ROOT), rs.getString(i));
                }
                rows.put(row.get("note_id"), row);
            }
        }
        return rows;
    }
}

package org.chartstream.datasets;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Loads a {@link ClinicalDataset} into PostgreSQL: creates the schema if absent, then inserts every table with
 * batched prepared statements, one transaction per table, patients first. Rows already present (same primary key
 * or business key) are skipped ({@code ON CONFLICT DO NOTHING}), so loading the same dataset twice is harmless.
 */
public final class ClinicalDatasetLoader {

    /** Rows per JDBC batch. */
    public static final int BATCH_SIZE = 500;

    private ClinicalDatasetLoader() {
    }

    /** Creates the tables (if absent), replica identity and indexes, in one transaction. */
    public static void createSchema(Connection c) throws SQLException {
        inTransaction(c, () -> {
            try (Statement st = c.createStatement()) {
                for (String sql : ClinicalSchema.ddlStatements()) {
                    st.execute(sql);
                }
            }
            return null;
        });
    }

    /**
     * Creates the schema if absent and inserts all rows.
     *
     * @return per table (in load order), the number of rows inserted (rows that already existed are not counted)
     */
    public static Map<String, Integer> load(Connection c, ClinicalDataset d) throws SQLException {
        createSchema(c);
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (ClinicalSchema.Table t : ClinicalSchema.tables()) {
            List<? extends ClinicalRow> rows = d.rows(t.name());
            counts.put(t.name(), inTransaction(c, () -> insert(c, t, rows)));
        }
        return counts;
    }

    private static int insert(Connection c, ClinicalSchema.Table t, List<? extends ClinicalRow> rows)
            throws SQLException {
        List<ClinicalSchema.Column> cols = t.dataColumns();
        int inserted = 0;
        try (PreparedStatement ps = c.prepareStatement(t.insertSql())) {
            int pending = 0;
            for (ClinicalRow row : rows) {
                List<Object> values = row.valueList();
                if (values.size() != cols.size()) {
                    throw new IllegalStateException("row of " + t.name() + " has " + values.size()
                            + " values for " + cols.size() + " columns");
                }
                for (int i = 0; i < cols.size(); i++) {
                    bind(ps, i + 1, cols.get(i), values.get(i));
                }
                ps.addBatch();
                if (++pending == BATCH_SIZE) {
                    inserted += count(ps.executeBatch());
                    pending = 0;
                }
            }
            if (pending > 0) {
                inserted += count(ps.executeBatch());
            }
        }
        return inserted;
    }

    private static void bind(PreparedStatement ps, int index, ClinicalSchema.Column col, Object value)
            throws SQLException {
        if (value == null) {
            ps.setNull(index, col.type().jdbcType());
            return;
        }
        switch (col.type()) {
            case TEXT:
                ps.setString(index, (String) value);
                break;
            case BIGINT:
                ps.setLong(index, ((Number) value).longValue());
                break;
            case UUID:      // java.util.UUID -> uuid
            case DATE:      // java.time.LocalDate -> date
            case TIMESTAMPTZ: // java.time.OffsetDateTime -> timestamptz
                ps.setObject(index, value);
                break;
            default:
                throw new IllegalStateException(col.type().name());
        }
    }

    private static int count(int[] results) {
        int n = 0;
        for (int r : results) {
            if (r > 0) {
                n += r;
            } else if (r == Statement.SUCCESS_NO_INFO) {
                n++;
            }
        }
        return n;
    }

    private interface SqlWork<T> {
        T run() throws SQLException;
    }

    private static <T> T inTransaction(Connection c, SqlWork<T> work) throws SQLException {
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(false);
        try {
            T result = work.run();
            c.commit();
            return result;
        } catch (SQLException | RuntimeException e) {
            try {
                c.rollback();
            } catch (SQLException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        } finally {
            c.setAutoCommit(autoCommit);
        }
    }
}

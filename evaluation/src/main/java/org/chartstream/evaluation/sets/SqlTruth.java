package org.chartstream.evaluation.sets;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The truth of a question, computed at eval time by running its SQL on the source the pipeline was loaded from, so a
 * held-out file is scored the same way. A question with {@code params} is first instantiated: the first row of that
 * SQL fills the {@code {column}} placeholders (as the text in the question, as a quoted literal in the SQL), so a
 * question about "one patient" picks that patient from the data loaded, not from a name written into the file.
 */
public final class SqlTruth {
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([A-Za-z_][A-Za-z0-9_]*)}");

    private final Connection connection;

    public SqlTruth(Connection connection) {
        this.connection = connection;
    }

    /** A question with its placeholders filled: the text asked, the SQL that answers it and its scope. */
    public record Instance(SetQuestion question, String text, String sql, Map<String, String> scope) {
        /** Sizes only: the text may name a patient. */
        @Override
        public String toString() {
            return "Instance[" + question.id() + "]";
        }
    }

    /** {@code q} with its placeholders filled from its {@code params} row. */
    public Instance instantiate(SetQuestion q) throws SQLException {
        if (q.params() == null) {
            return new Instance(q, q.question(), q.sql(), q.scope());
        }
        Result params = run(q.params());
        if (params.rows().isEmpty()) {
            throw new SQLException(q.id() + ": its params SQL returns no row on this source");
        }
        Map<String, String> row = new LinkedHashMap<>();
        for (int i = 0; i < params.header().size(); i++) {
            row.put(params.header().get(i), params.rows().get(0).get(i));
        }
        Map<String, String> scope = new LinkedHashMap<>();
        q.scope().forEach((column, value) -> scope.put(column, fill(q, value, row, false)));
        return new Instance(q, fill(q, q.question(), row, false), q.sql() == null ? null : fill(q, q.sql(), row, true), scope);
    }

    static String fill(SetQuestion q, String template, Map<String, String> row, boolean sqlLiteral) {
        Matcher m = PLACEHOLDER.matcher(template);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            if (!row.containsKey(m.group(1))) {
                throw new IllegalArgumentException(q.id() + " (line " + q.line() + "): placeholder {" + m.group(1)
                        + "} is no column of its params SQL; columns: " + row.keySet());
            }
            String value = row.get(m.group(1));
            String filled = sqlLiteral ? (value == null ? "NULL" : "'" + value.replace("'", "''") + "'") : String.valueOf(value);
            m.appendReplacement(out, Matcher.quoteReplacement(filled));
        }
        m.appendTail(out);
        return out.toString();
    }

    /**
     * The right answer of {@code instance}. An unanswerable question's SQL, when it has one, is a proof of absence: it
     * must return a count of 0, else the question is not unanswerable on this source.
     */
    public Expected expected(Instance instance) throws SQLException {
        SetQuestion q = instance.question();
        if (instance.sql() == null) {
            return Expected.REFUSAL;
        }
        Result result = run(instance.sql());
        if (q.unanswerable()) {
            boolean absent = result.header().equals(List.of(SetQuestion.COUNT)) && result.rows().size() == 1
                    && "0".equals(result.rows().get(0).get(0));
            if (!absent) {
                throw new SQLException(q.id() + ": its proof of absence does not hold on this source (it must return count 0)");
            }
            return Expected.REFUSAL;
        }
        return Expected.of(q.scored(), result.header(), result.rows());
    }

    /** The patient numbers of the source (a reply's text is searched for them), from its patient table. */
    public List<String> column(String qualifiedTable, String column) throws SQLException {
        List<String> values = new ArrayList<>();
        for (List<String> row : run("SELECT " + quote(column) + " FROM " + qualified(qualifiedTable)).rows()) {
            if (row.get(0) != null) {
                values.add(row.get(0));
            }
        }
        return values;
    }

    private static String qualified(String table) {
        int dot = table.indexOf('.');
        return dot < 0 ? quote(table) : quote(table.substring(0, dot)) + "." + quote(table.substring(dot + 1));
    }

    private static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    record Result(List<String> header, List<List<String>> rows) {
    }

    private Result run(String sql) throws SQLException {
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            ResultSetMetaData meta = rs.getMetaData();
            List<String> header = new ArrayList<>();
            for (int i = 1; i <= meta.getColumnCount(); i++) {
                header.add(meta.getColumnLabel(i));
            }
            List<List<String>> rows = new ArrayList<>();
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= header.size(); i++) {
                    row.add(rs.getString(i));
                }
                rows.add(row);
            }
            return new Result(header, rows);
        }
    }
}

package org.chartstream.datasets;

import java.sql.Types;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * PostgreSQL schema ({@value #SCHEMA}) of the synthetic clinical source database: patients and their encounters,
 * conditions, medications and free-text clinical notes. Every table has {@code REPLICA IDENTITY FULL} so that
 * Debezium update and delete events carry the complete old row.
 *
 * <p>Audit columns ({@code created_at}, {@code updated_at}) are filled by the database (default {@code now()});
 * they are not part of the generated rows and not bound by the loader.
 */
public final class ClinicalSchema {

    public static final String SCHEMA = "public";

    public static final String PATIENTS = "patients";
    public static final String ENCOUNTERS = "encounters";
    public static final String CONDITIONS = "conditions";
    public static final String MEDICATIONS = "medications";
    public static final String CLINICAL_NOTES = "clinical_notes";

    /** Table names in load order: {@code patients} first, children after it. */
    public static final List<String> TABLES = List.of(PATIENTS, ENCOUNTERS, CONDITIONS, MEDICATIONS, CLINICAL_NOTES);

    /** The SQL type of a column, with its JDBC type (for {@code setNull}) and Java representation. */
    public enum ColumnType {
        UUID("uuid", Types.OTHER, java.util.UUID.class),
        TEXT("text", Types.VARCHAR, String.class),
        DATE("date", Types.DATE, LocalDate.class),
        TIMESTAMPTZ("timestamptz", Types.TIMESTAMP_WITH_TIMEZONE, OffsetDateTime.class),
        BIGINT("bigint", Types.BIGINT, Long.class);

        private final String sql;
        private final int jdbcType;
        private final Class<?> javaType;

        ColumnType(String sql, int jdbcType, Class<?> javaType) {
            this.sql = sql;
            this.jdbcType = jdbcType;
            this.javaType = javaType;
        }

        public String sql() {
            return sql;
        }

        public int jdbcType() {
            return jdbcType;
        }

        public Class<?> javaType() {
            return javaType;
        }

        /** Parses the string form written by {@link #format(Object)} (null stays null). */
        public Object parse(Object value) {
            if (value == null) {
                return null;
            }
            String s = value.toString();
            switch (this) {
                case UUID: return java.util.UUID.fromString(s);
                case TEXT: return s;
                case DATE: return LocalDate.parse(s);
                case TIMESTAMPTZ: return OffsetDateTime.parse(s);
                case BIGINT: return value instanceof Number ? ((Number) value).longValue() : Long.parseLong(s);
                default: throw new IllegalStateException(name());
            }
        }

        /** A JSON-friendly form: numbers stay numbers, everything else becomes its ISO / canonical string. */
        public Object format(Object value) {
            if (value == null) {
                return null;
            }
            return this == BIGINT ? (Object) ((Number) value).longValue() : value.toString();
        }
    }

    /**
     * A column: name, type, constraint clause for the DDL (may be empty) and whether it is an audit column that the
     * database fills.
     */
    public record Column(String name, ColumnType type, String constraints, boolean audit) {
        public Column {
            Objects.requireNonNull(name);
            Objects.requireNonNull(type);
            constraints = constraints == null ? "" : constraints;
        }

        String ddl() {
            return constraints.isEmpty() ? name + " " + type.sql() : name + " " + type.sql() + " " + constraints;
        }
    }

    /** One table: its primary-key column, the column that holds the patient id, and all columns in DDL order. */
    public record Table(String name, String primaryKey, String patientIdColumn, List<Column> columns) {
        public Table {
            columns = List.copyOf(columns);
        }

        public String qualifiedName() {
            return SCHEMA + "." + name;
        }

        public List<String> columnNames() {
            return columns.stream().map(Column::name).collect(Collectors.toList());
        }

        /** The columns that the generated rows carry (all but the audit columns), in DDL order. */
        public List<Column> dataColumns() {
            return columns.stream().filter(c -> !c.audit()).collect(Collectors.toList());
        }

        public List<String> dataColumnNames() {
            return dataColumns().stream().map(Column::name).collect(Collectors.toList());
        }

        public Column column(String columnName) {
            return columns.stream().filter(c -> c.name().equals(columnName)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no column " + columnName + " in " + name));
        }

        /** {@code CREATE TABLE IF NOT EXISTS ...} */
        public String createTableSql() {
            StringBuilder sb = new StringBuilder("CREATE TABLE IF NOT EXISTS ").append(qualifiedName()).append(" (\n");
            for (int i = 0; i < columns.size(); i++) {
                sb.append("  ").append(columns.get(i).ddl()).append(i + 1 < columns.size() ? ",\n" : "\n");
            }
            return sb.append(")").toString();
        }

        public String replicaIdentitySql() {
            return "ALTER TABLE " + qualifiedName() + " REPLICA IDENTITY FULL";
        }

        /**
         * {@code INSERT INTO public.t (data columns) VALUES (?, ...) ON CONFLICT DO NOTHING}: reloading the same
         * dataset into a database that already holds it inserts nothing and fails on nothing.
         */
        public String insertSql() {
            List<String> cols = dataColumnNames();
            return "INSERT INTO " + qualifiedName() + " (" + String.join(", ", cols) + ") VALUES ("
                    + cols.stream().map(c -> "?").collect(Collectors.joining(", ")) + ") ON CONFLICT DO NOTHING";
        }
    }

    private static Column col(String name, ColumnType type) {
        return new Column(name, type, "", false);
    }

    private static Column col(String name, ColumnType type, String constraints) {
        return new Column(name, type, constraints, false);
    }

    private static List<Column> withAudit(Column... cols) {
        List<Column> all = new ArrayList<>(List.of(cols));
        all.add(new Column("created_at", ColumnType.TIMESTAMPTZ, "DEFAULT now()", true));
        all.add(new Column("updated_at", ColumnType.TIMESTAMPTZ, "DEFAULT now()", true));
        return all;
    }

    private static final List<Table> TABLE_DEFS = List.of(
            new Table(PATIENTS, "patient_id", "patient_id", withAudit(
                    col("patient_id", ColumnType.UUID, "PRIMARY KEY"),
                    col("patient_no", ColumnType.TEXT, "NOT NULL UNIQUE"),
                    col("first_name", ColumnType.TEXT),
                    col("last_name", ColumnType.TEXT),
                    col("birth_date", ColumnType.DATE),
                    col("gender", ColumnType.TEXT),
                    col("city", ColumnType.TEXT),
                    col("state", ColumnType.TEXT))),
            new Table(ENCOUNTERS, "encounter_id", "patient_id", withAudit(
                    col("encounter_id", ColumnType.UUID, "PRIMARY KEY"),
                    col("encounter_no", ColumnType.TEXT, "NOT NULL UNIQUE"),
                    col("patient_id", ColumnType.UUID, "NOT NULL REFERENCES " + SCHEMA + ".patients (patient_id)"),
                    col("start_time", ColumnType.TIMESTAMPTZ),
                    col("stop_time", ColumnType.TIMESTAMPTZ),
                    col("encounter_class", ColumnType.TEXT),
                    col("snomed_code", ColumnType.TEXT),
                    col("description", ColumnType.TEXT),
                    col("reason_code", ColumnType.TEXT),
                    col("reason_description", ColumnType.TEXT))),
            new Table(CONDITIONS, "condition_id", "patient_id", withAudit(
                    col("condition_id", ColumnType.BIGINT, "PRIMARY KEY"),
                    col("patient_id", ColumnType.UUID, "NOT NULL"),
                    col("encounter_id", ColumnType.UUID),
                    col("onset_date", ColumnType.DATE),
                    col("resolved_date", ColumnType.DATE),
                    col("snomed_code", ColumnType.TEXT),
                    col("icd10_code", ColumnType.TEXT),
                    col("description", ColumnType.TEXT))),
            new Table(MEDICATIONS, "medication_id", "patient_id", withAudit(
                    col("medication_id", ColumnType.BIGINT, "PRIMARY KEY"),
                    col("patient_id", ColumnType.UUID, "NOT NULL"),
                    col("encounter_id", ColumnType.UUID),
                    col("start_date", ColumnType.DATE),
                    col("stop_date", ColumnType.DATE),
                    col("rxnorm_code", ColumnType.TEXT),
                    col("description", ColumnType.TEXT),
                    col("reason_code", ColumnType.TEXT),
                    col("reason_description", ColumnType.TEXT))),
            new Table(CLINICAL_NOTES, "note_id", "patient_id", withAudit(
                    col("note_id", ColumnType.BIGINT, "PRIMARY KEY"),
                    col("note_no", ColumnType.TEXT, "NOT NULL UNIQUE"),
                    col("patient_id", ColumnType.UUID, "NOT NULL"),
                    col("encounter_id", ColumnType.UUID, "NULL"),
                    col("note_date", ColumnType.DATE),
                    col("chief_complaint", ColumnType.TEXT),
                    col("secondary_complaints", ColumnType.TEXT),
                    col("note_text", ColumnType.TEXT))));

    private static final Map<String, Table> BY_NAME =
            TABLE_DEFS.stream().collect(Collectors.toUnmodifiableMap(Table::name, Function.identity()));

    private ClinicalSchema() {
    }

    /** All tables in load order. */
    public static List<Table> tables() {
        return TABLE_DEFS;
    }

    public static Table table(String name) {
        Table t = BY_NAME.get(name);
        if (t == null) {
            throw new IllegalArgumentException("unknown clinical table: " + name + " (known: " + TABLES + ")");
        }
        return t;
    }

    /** Primary-key column of a table, e.g. {@code patient_id} for patients, {@code note_id} for clinical_notes. */
    public static String primaryKey(String table) {
        return table(table).primaryKey();
    }

    /** The column holding the patient's id: {@code patient_id} in every table (the primary key of patients). */
    public static String patientIdColumn(String table) {
        return table(table).patientIdColumn();
    }

    /** Columns of a table in DDL order, audit columns included. */
    public static List<String> columns(String table) {
        return table(table).columnNames();
    }

    /** Columns carried by generated rows and bound by the loader (no audit columns), in DDL order. */
    public static List<String> dataColumns(String table) {
        return table(table).dataColumnNames();
    }

    /**
     * The DDL as separate statements, each idempotent: create table if absent, replica identity full, and an index
     * on {@code patient_id} for every child table.
     */
    public static List<String> ddlStatements() {
        List<String> out = new ArrayList<>();
        for (Table t : TABLE_DEFS) {
            out.add(t.createTableSql());
            out.add(t.replicaIdentitySql());
            if (!t.patientIdColumn().equals(t.primaryKey())) {
                out.add("CREATE INDEX IF NOT EXISTS " + t.name() + "_patient_id_idx ON " + t.qualifiedName()
                        + " (" + t.patientIdColumn() + ")");
            }
        }
        return List.copyOf(out);
    }

    /** The whole DDL as one script ({@code ;}-terminated statements). */
    public static String ddl() {
        return ddlStatements().stream().map(s -> s + ";\n").collect(Collectors.joining("\n"));
    }
}

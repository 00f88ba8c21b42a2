package org.chartstream.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.chartstream.app.InProcessCli;
import org.chartstream.models.OnnxRuntimeGuard;
import org.chartstream.runtime.PipelineRuntime;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code run --dataset mimic-iv-demo} on the real pipeline, started as {@code run} starts it (the dataset's
 * configuration under the user's, its loader on the embedded PostgreSQL created by the runtime): every table of the
 * source files is loaded with its rows and its official keys, composite ones included, and the pipeline indexes a
 * subset of the tables (patients, admissions, diagnoses) to searchable, with {@code status} counting every row. The
 * {@code status} command is given the user's configuration only: the dataset's comes from the data directory.
 */
class MimicDatasetIT {
    /** Rows of each file of the MIMIC-IV demo 2.2 (PhysioNet's manifest), in load order. */
    private static final Map<String, Integer> SOURCE_ROWS = rows();
    private static final List<String> INDEXED = List.of("patients", "admissions", "diagnoses_icd");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> PROGRESS = new CopyOnWriteArrayList<>();
    private static PipelineRuntime runtime;
    private static Path cliConfig;
    private static double searchableSeconds;

    private static Map<String, Integer> rows() {
        Map<String, Integer> rows = new LinkedHashMap<>();
        rows.put("d_icd_diagnoses", 109_775);
        rows.put("d_icd_procedures", 85_257);
        rows.put("d_labitems", 1_622);
        rows.put("patients", 100);
        rows.put("admissions", 275);
        rows.put("transfers", 1_190);
        rows.put("diagnoses_icd", 4_506);
        rows.put("procedures_icd", 722);
        rows.put("prescriptions", 18_087);
        rows.put("microbiologyevents", 2_899);
        rows.put("labevents", 107_727);
        return rows;
    }

    @BeforeAll
    static void start() throws Exception {
        OnnxRuntimeGuard.shortenInformationalClassPathProperties();
        Path dir = Path.of("target", "it", "MimicDatasetIT-" + System.currentTimeMillis()).toAbsolutePath();
        Files.createDirectories(dir);
        Path user = Files.writeString(dir.resolve("user.properties"), "data.dir=" + dir + "\nsource.tables=" + String.join(",", INDEXED) + "\n");
        cliConfig = user;
        RunDataset mimic = RunDataset.select("mimic-iv-demo", ChartstreamConfig.load(user, Map.of()));
        mimic.claim(dir.resolve("run"));
        long t = System.nanoTime();
        runtime = PipelineRuntime.start(mimic.config(), dir.resolve("run"), mimic.loader(PROGRESS::add),
                line -> System.out.println("[MimicDatasetIT] " + line));
        runtime.awaitSearchable(Duration.ofMinutes(20));
        searchableSeconds = (System.nanoTime() - t) / 1e9;
        System.out.printf("[MimicDatasetIT] %s searchable %.1f s after the start%n", INDEXED, searchableSeconds);
    }

    @AfterAll
    static void stop() {
        Optional.ofNullable(runtime).ifPresent(PipelineRuntime::close);
    }

    @Test
    void everyTableHoldsTheRowsOfItsSourceFileAndTheLoadSaidSoPerTable() throws Exception {
        Map<String, Integer> counted = new LinkedHashMap<>();
        try (Connection c = runtime.connection("ehr"); Statement st = c.createStatement()) {
            for (String table : SOURCE_ROWS.keySet()) {
                try (ResultSet rs = st.executeQuery("SELECT count(*) FROM mimiciv_hosp." + table)) {
                    rs.next();
                    counted.put(table, rs.getInt(1));
                }
            }
        }
        assertThat(counted).containsExactlyEntriesOf(SOURCE_ROWS);
        List<String> expected = new ArrayList<>();
        SOURCE_ROWS.forEach((table, rows) -> expected.add(String.format("dataset mimic-iv-demo: mimiciv_hosp.%s %,d rows", table, rows)));
        assertThat(PROGRESS).hasSize(SOURCE_ROWS.size());
        for (int i = 0; i < expected.size(); i++) {
            assertThat(PROGRESS.get(i)).as("progress line %d names the table and its rows, in load order", i).startsWith(expected.get(i) + " (");
        }
    }

    @Test
    void theOfficialKeysAreDeclaredCompositeOnesInTheirOrder() throws Exception {
        try (Connection c = runtime.connection("ehr")) {
            assertThat(primaryKey(c, "diagnoses_icd")).containsExactly("hadm_id", "seq_num", "icd_code", "icd_version");
            assertThat(primaryKey(c, "procedures_icd")).containsExactly("hadm_id", "seq_num", "icd_code", "icd_version");
            assertThat(primaryKey(c, "prescriptions")).containsExactly("pharmacy_id", "drug_type", "drug");
            assertThat(primaryKey(c, "d_icd_diagnoses")).containsExactly("icd_code", "icd_version");
            assertThat(primaryKey(c, "d_icd_procedures")).containsExactly("icd_code", "icd_version");
            assertThat(primaryKey(c, "patients")).containsExactly("subject_id");
            assertThat(primaryKey(c, "admissions")).containsExactly("hadm_id");
        }
    }

    @Test
    void theIndexedTablesReachSearchableWithStatusCountingEverySourceRow() throws Exception {
        Map<String, Long> expected = new LinkedHashMap<>();
        INDEXED.forEach(table -> expected.put("ehr:" + table, (long) SOURCE_ROWS.get(table)));
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        Map<String, Long> rows = statusRows();
        while (!rows.equals(expected) && System.nanoTime() < deadline) {
            Thread.sleep(500);
            rows = statusRows();
        }
        assertThat(rows).containsExactlyInAnyOrderEntriesOf(expected);
    }

    /** Rows per table as {@code status --json} reports them, read from the broker. */
    private static Map<String, Long> statusRows() throws Exception {
        InProcessCli status = InProcessCli.run("--config", cliConfig.toString(), "status", "--bootstrap", runtime.bootstrapServers(), "--json");
        assertThat(status.code()).as("status exit code; stderr: %s", status.err()).isZero();
        Map<String, Long> rows = new LinkedHashMap<>();
        for (JsonNode t : JSON.readTree(status.out()).path("tables")) {
            rows.put(t.path("table").asText(), t.path("rows").asLong());
        }
        return rows;
    }

    private static List<String> primaryKey(Connection c, String table) throws Exception {
        List<String> columns = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT k.column_name FROM information_schema.table_constraints t"
                + " JOIN information_schema.key_column_usage k ON k.constraint_schema = t.constraint_schema"
                + " AND k.constraint_name = t.constraint_name"
                + " WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = 'mimiciv_hosp' AND t.table_name = ?"
                + " ORDER BY k.ordinal_position")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    columns.add(rs.getString(1));
                }
            }
        }
        return columns;
    }
}

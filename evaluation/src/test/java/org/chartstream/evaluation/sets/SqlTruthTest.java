package org.chartstream.evaluation.sets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.chartstream.embedded.EmbeddedPostgresSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The truth of a question is its SQL run on a real PostgreSQL source, instantiated from its params row. */
class SqlTruthTest {
    @TempDir
    static Path dir;
    private static EmbeddedPostgresSource postgres;
    private static Connection connection;

    @BeforeAll
    static void start() throws Exception {
        postgres = EmbeddedPostgresSource.start(dir);
        connection = postgres.connection();
        try (Statement st = connection.createStatement()) {
            st.execute("CREATE SCHEMA ward");
            st.execute("CREATE TABLE ward.people (no text PRIMARY KEY, name text)");
            st.execute("CREATE TABLE ward.orders (id int PRIMARY KEY, no text, drug text, stopped date)");
            st.execute("INSERT INTO ward.people VALUES ('P-1', 'Ann O''Neil'), ('P-2', 'Bo Li'), ('P-3', 'Cy Ng')");
            st.execute("INSERT INTO ward.orders VALUES (1, 'P-1', 'warfarin', NULL), (2, 'P-1', 'aspirin', '2024-01-01'),"
                    + " (3, 'P-2', 'warfarin', NULL), (4, 'P-1', 'warfarin', NULL)");
        }
    }

    @AfterAll
    static void stop() throws Exception {
        connection.close();
        postgres.close();
    }

    private static SetQuestion question(String id, String text, String sql, String params, List<String> keys,
                                        Map<String, String> scope) {
        return new SetQuestion(1, id, "k", text, sql, params, keys, Map.of(), scope, null);
    }

    @Test
    void aTemplatedQuestionIsAskedAboutThePatientItsParamsPickAndScoredOnThatPatientsRows() throws SQLException {
        SqlTruth truth = new SqlTruth(connection);
        SetQuestion q = question("cur-1", "What is {name} still on?",
                "SELECT DISTINCT drug FROM ward.orders WHERE no = {no} AND stopped IS NULL ORDER BY 1",
                "SELECT p.name, p.no FROM ward.people p ORDER BY (SELECT count(*) FROM ward.orders o WHERE o.no = p.no) DESC LIMIT 1",
                List.of("values", "count"), Map.of("no", "{no}"));

        SqlTruth.Instance instance = truth.instantiate(q);
        Expected expected = truth.expected(instance);

        assertThat(instance.text()).isEqualTo("What is Ann O'Neil still on?");
        assertThat(instance.scope()).isEqualTo(Map.of("no", "P-1"));
        assertThat(expected.values()).containsExactly("warfarin");
        assertThat(expected.count()).isEqualTo(1L);
    }

    @Test
    void cohortsCountsAndThePatientNumbersComeFromTheSource() throws SQLException {
        SqlTruth truth = new SqlTruth(connection);
        Expected cohort = truth.expected(truth.instantiate(question("c", "Who takes warfarin?",
                "SELECT DISTINCT no FROM ward.orders WHERE drug = 'warfarin' ORDER BY 1", null, List.of("patients", "count"), Map.of())));
        Expected orders = truth.expected(truth.instantiate(question("n", "How many warfarin orders?",
                "SELECT count(*) AS count FROM ward.orders WHERE drug = 'warfarin'", null, List.of("count"), Map.of())));

        assertThat(cohort.patients()).containsExactlyInAnyOrder("P-1", "P-2");
        assertThat(cohort.count()).isEqualTo(2L);
        assertThat(orders.count()).isEqualTo(3L);
        assertThat(truth.column("ward.people", "no")).containsExactlyInAnyOrder("P-1", "P-2", "P-3");
    }

    @Test
    void anUnanswerableQuestionsProofOfAbsenceMustHold() throws SQLException {
        SqlTruth truth = new SqlTruth(connection);
        SetQuestion absent = question("u-1", "What did P-9 take?", "SELECT count(*) AS count FROM ward.people WHERE no = 'P-9'",
                null, List.of("refuse"), Map.of());
        SetQuestion present = question("u-2", "What did P-2 take?", "SELECT count(*) AS count FROM ward.people WHERE no = 'P-2'",
                null, List.of("refuse"), Map.of());

        assertThat(truth.expected(truth.instantiate(absent))).isEqualTo(Expected.REFUSAL);
        assertThatThrownBy(() -> truth.expected(truth.instantiate(present)))
                .hasMessage("u-2: its proof of absence does not hold on this source (it must return count 0)");
        assertThatThrownBy(() -> truth.instantiate(question("p", "{x}", "SELECT 1", "SELECT 'a' AS x WHERE false",
                List.of("count"), Map.of()))).hasMessage("p: its params SQL returns no row on this source");
    }
}

package org.chartstream.datasets;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The loader's JDBC conversation, against a recording fake connection (a real PostgreSQL load is covered by the
 * embedded-PostgreSQL integration tests).
 */
class ClinicalDatasetLoaderTest {

    static final UUID P1 = UUID.fromString("00000000-0000-0000-0000-000000000001");
    static final UUID E1 = UUID.fromString("00000000-0000-0000-0000-0000000000e1");

    static ClinicalDataset tiny() {
        DatasetSpec spec = DatasetSpec.defaults().withPatients(1).withAciBenchDir(Path.of("unused"));
        OffsetDateTime t = OffsetDateTime.of(2024, 5, 1, 9, 30, 0, 0, ZoneOffset.UTC);
        return new ClinicalDataset(spec,
                List.of(new PatientRow(P1, "MRN-000001", "Martha", "Collins", LocalDate.of(1974, 7, 11), "female",
                        "Boston", "Massachusetts")),
                List.of(new EncounterRow(E1, "ENC-000001", P1, t, t.plusMinutes(30), "wellness", "162673000",
                        "General examination of patient (procedure)", null, null)),
                List.of(new ConditionRow(1, P1, E1, LocalDate.of(2014, 6, 28), null, "59621000", "I10",
                        "Essential hypertension (disorder)")),
                List.of(new MedicationRow(1, P1, E1, LocalDate.of(2024, 5, 1), null, "314076",
                        "lisinopril 10 MG Oral Tablet", "59621000", "Essential hypertension (disorder)")),
                List.of(new ClinicalNoteRow(1, "D2N001", P1, null, LocalDate.of(2024, 12, 30), "annual exam",
                        "hypertension", "CHIEF COMPLAINT\n\nAnnual exam.")));
    }

    /** Records every JDBC call as a line of text. */
    static final class Recorder {
        final List<String> log = new ArrayList<>();
        boolean autoCommit = true;
        String failOnSqlContaining;

        Connection connection() {
            return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[]{Connection.class},
                    (proxy, m, args) -> {
                        switch (m.getName()) {
                            case "getAutoCommit": return autoCommit;
                            case "setAutoCommit": autoCommit = (Boolean) args[0]; log.add("autoCommit=" + args[0]);
                                return null;
                            case "commit": log.add("commit"); return null;
                            case "rollback": log.add("rollback"); return null;
                            case "createStatement": return statement();
                            case "prepareStatement": log.add("prepare " + args[0]); return prepared((String) args[0]);
                            default: throw new UnsupportedOperationException(m.getName());
                        }
                    });
        }

        Statement statement() {
            return (Statement) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[]{Statement.class},
                    (proxy, m, args) -> {
                        switch (m.getName()) {
                            case "execute":
                                log.add("execute " + ((String) args[0]).lines().findFirst().orElse(""));
                                return false;
                            case "close": return null;
                            default: throw new UnsupportedOperationException(m.getName());
                        }
                    });
        }

        PreparedStatement prepared(String sql) {
            int[] pending = {0};
            return (PreparedStatement) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[]{PreparedStatement.class}, (proxy, m, args) -> {
                        switch (m.getName()) {
                            case "setString": case "setLong": case "setObject":
                                log.add("  " + m.getName() + "(" + args[0] + ", " + args[1].getClass().getSimpleName()
                                        + " " + args[1] + ")");
                                return null;
                            case "setNull": log.add("  setNull(" + args[0] + ", " + args[1] + ")"); return null;
                            case "addBatch": pending[0]++; return null;
                            case "executeBatch":
                                if (failOnSqlContaining != null && sql.contains(failOnSqlContaining)) {
                                    throw new SQLException("boom");
                                }
                                int[] r = new int[pending[0]];
                                java.util.Arrays.fill(r, 1);
                                pending[0] = 0;
                                log.add("executeBatch " + r.length);
                                return r;
                            case "close": return null;
                            default: throw new UnsupportedOperationException(m.getName());
                        }
                    });
        }
    }

    @Test
    void createsSchemaThenInsertsEachTableInItsOwnTransactionPatientsFirst() throws SQLException {
        Recorder rec = new Recorder();
        Map<String, Integer> counts = ClinicalDatasetLoader.load(rec.connection(), tiny());

        assertThat(counts).containsExactly(Map.entry("patients", 1), Map.entry("encounters", 1),
                Map.entry("conditions", 1), Map.entry("medications", 1), Map.entry("clinical_notes", 1));
        assertThat(rec.autoCommit).isTrue();
        List<String> prepares = rec.log.stream().filter(l -> l.startsWith("prepare ")).toList();
        assertThat(prepares).hasSize(5);
        for (int i = 0; i < 5; i++) {
            assertThat(prepares.get(i)).isEqualTo("prepare " + ClinicalSchema.tables().get(i).insertSql());
        }
        // DDL first, in a transaction of its own; then one commit per table
        assertThat(rec.log.get(0)).isEqualTo("autoCommit=false");
        assertThat(rec.log.get(1)).isEqualTo("execute CREATE TABLE IF NOT EXISTS public.patients (");
        assertThat(rec.log.stream().filter(l -> l.equals("commit")).count()).isEqualTo(6);
        assertThat(rec.log).doesNotContain("rollback");
        // typed binding: uuid and dates as objects, nulls with their JDBC type
        assertThat(rec.log).contains("  setObject(1, UUID " + P1 + ")", "  setString(2, String MRN-000001)",
                "  setObject(5, LocalDate 1974-07-11)", "  setObject(4, OffsetDateTime 2024-05-01T09:30Z)",
                "  setNull(9, " + Types.VARCHAR + ")", "  setLong(1, Long 1)",
                "  setNull(4, " + Types.OTHER + ")", "  setNull(5, " + Types.DATE + ")");
    }

    @Test
    void aFailingTableIsRolledBackAndAutoCommitRestored() {
        Recorder rec = new Recorder();
        rec.failOnSqlContaining = "public.conditions";
        assertThatThrownBy(() -> ClinicalDatasetLoader.load(rec.connection(), tiny()))
                .isInstanceOf(SQLException.class).hasMessage("boom");
        assertThat(rec.log).contains("rollback");
        assertThat(rec.log.stream().filter(l -> l.equals("commit")).count()).isEqualTo(3);
        assertThat(rec.autoCommit).isTrue();
    }
}

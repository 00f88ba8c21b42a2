package org.chartstream.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.chartstream.client.QueryClient;
import org.chartstream.runtime.PipelineRuntime;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.schemas.Citation;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hospital schema whose patients are known by number alone (a patient table without name columns, as MIMIC-IV's
 * {@code patients}), on the whole embedded pipeline: embedded PostgreSQL, Debezium, the ingest and query topologies.
 * A question naming a patient by number is answered from that patient's rows only; a number no patient has is
 * refused, naming it.
 */
class NumberedPatientsIT {
    private static final String REPLY_TOPIC = "chartstream.replies.numbered";
    private static PipelineRuntime runtime;
    @TempDir
    static Path dir;

    /** MIMIC-IV's shape: the patient's number is its id, and the patient table has no name columns. */
    private static ChartstreamConfig numberOnlyPatients() {
        return ChartstreamConfig.defaults().with("data.dir", dir.toString()).with("ops.http.port", "0")
                .with("source.tables", "patients,prescriptions")
                .with("source.patient-table", "patients")
                .with("source.patient-id-column", "subject_id")
                .with("source.patient-number-column", "subject_id")
                .with("source.patient-name-columns", "");
    }

    private static Map<String, Integer> load(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.executeUpdate("create table patients (subject_id integer primary key, gender varchar(1) not null,"
                    + " anchor_age integer not null)");
            s.executeUpdate("create table prescriptions (subject_id integer not null, pharmacy_id integer not null,"
                    + " drug varchar(255) not null, route varchar(50), primary key (subject_id, pharmacy_id))");
            s.executeUpdate("insert into patients values (10000032, 'F', 52), (10000084, 'M', 72)");
            s.executeUpdate("insert into prescriptions values (10000032, 1, 'Furosemide', 'PO'),"
                    + " (10000084, 2, 'Vancomycin', 'IV'), (10000084, 3, 'Furosemide', 'IV')");
        }
        return Map.of("patients", 2, "prescriptions", 3);
    }

    @BeforeAll
    static void start() {
        runtime = QuestionReplies.startSearchable(numberOnlyPatients(), dir, "numbered", NumberedPatientsIT::load, REPLY_TOPIC);
    }

    @AfterAll
    static void stop() {
        if (runtime != null) {
            runtime.close();
        }
    }

    @Test
    void aQuestionNamingAPatientByNumberIsAnsweredFromThatPatientsRowsOnly() throws Exception {
        try (QueryClient client = new QueryClient(runtime.bootstrapServers(), REPLY_TOPIC)) {
            ReplyEvent gender = last(client, "What is the gender of patient 10000084?");
            assertThat(gender.getType()).isEqualTo(ReplyType.ANSWER);
            assertThat(gender.getCitations()).isNotEmpty().allSatisfy(c -> assertThat(c.getText()).contains("patient: 10000084"));
            assertThat(gender.getCitations()).extracting(Citation::getTableName, Citation::getRowKey).contains(
                    tuple("patients", "10000084"));
            assertThat(gender.getText()).contains("patient 10000084").doesNotContain("without a patient");

            ReplyEvent medications = last(client, "What medications was patient 10000032 prescribed?");
            assertThat(medications.getType()).isEqualTo(ReplyType.ANSWER);
            assertThat(medications.getCitations()).isNotEmpty()
                    .allSatisfy(c -> assertThat(c.getText()).contains("patient: 10000032").doesNotContain("10000084"));
            assertThat(medications.getCitations()).extracting(c -> c.getTableName() + ":" + c.getText())
                    .anySatisfy(c -> assertThat(c).startsWith("prescriptions:").contains("Furosemide"));
        }
    }

    @Test
    void aNumberNoPatientHasIsRefusedNamingIt() throws Exception {
        try (QueryClient client = new QueryClient(runtime.bootstrapServers(), REPLY_TOPIC)) {
            ReplyEvent reply = last(client, "What medications was patient 10099999 prescribed?");

            assertThat(reply.getType()).isEqualTo(ReplyType.REFUSED);
            assertThat(reply.getText()).contains("patient 10099999");
            assertThat(reply.getCitations()).isEmpty();
        }
    }

    private static ReplyEvent last(QueryClient client, String question) throws Exception {
        return QuestionReplies.last(client, question);
    }
}

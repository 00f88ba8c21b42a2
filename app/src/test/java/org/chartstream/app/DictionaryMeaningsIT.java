package org.chartstream.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.chartstream.client.QueryClient;
import org.chartstream.runtime.PipelineRuntime;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.schemas.AnswerCompleteness;
import org.chartstream.schemas.Citation;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;
import org.chartstream.schemas.SetOutput;
import org.chartstream.schemas.SetValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hospital schema shaped like MIMIC-IV's (codes whose meanings live in a dictionary table with space-padded
 * {@code CHAR(7)} codes, patients known by number, admissions known by number, a drug's route as a column), bound by a
 * binding file, on the whole embedded pipeline: embedded PostgreSQL, Debezium, the ingest and query topologies.
 * Issue 37's failures 1 and 3 and its admission numbers: a diagnosis named by its meaning is answered from the
 * dictionary's meanings, ICD-9 and ICD-10 alike (not by quoting unrelated rows); "how is X administered" gives the
 * routes of every order of X; an admission number scopes a question to that admission's rows.
 */
class DictionaryMeaningsIT {
    private static final String REPLY_TOPIC = "chartstream.replies.meanings";
    private static final String BINDING = """
            table.d_icd_diagnoses.role = dictionary
            table.d_icd_diagnoses.key = icd_code, icd_version
            table.patients.role = patient
            table.patients.key = subject_id
            table.patients.patient = subject_id
            table.patients.number = subject_id
            table.patients.fields = subject_id, gender, anchor_age
            table.patients.label.anchor_age = age
            table.admissions.role = encounter
            table.admissions.key = hadm_id
            table.admissions.patient = subject_id
            table.admissions.number = hadm_id
            table.admissions.time = admittime
            table.admissions.fields = hadm_id, admittime, admission_type
            table.admissions.label.hadm_id = admission
            table.admissions.concept = admission
            table.diagnoses_icd.role = event
            table.diagnoses_icd.key = hadm_id, seq_num
            table.diagnoses_icd.patient = subject_id
            table.diagnoses_icd.encounter = hadm_id
            table.diagnoses_icd.fields = icd_code, icd_version, hadm_id
            table.diagnoses_icd.lookup.diagnosis = icd_code, icd_version -> d_icd_diagnoses(icd_code, icd_version).long_title
            table.diagnoses_icd.label.hadm_id = admission
            table.diagnoses_icd.concept = diagnosis
            table.diagnoses_icd.concept-field = diagnosis
            table.prescriptions.role = event
            table.prescriptions.key = pharmacy_id
            table.prescriptions.patient = subject_id
            table.prescriptions.encounter = hadm_id
            table.prescriptions.time = starttime
            table.prescriptions.fields = drug, route, starttime, hadm_id
            table.prescriptions.label.hadm_id = admission
            table.prescriptions.terms.route = administered, given
            table.prescriptions.concept = medication
            table.prescriptions.concept-field = drug
            """;
    private static PipelineRuntime runtime;
    @TempDir
    static Path dir;

    private static ChartstreamConfig boundByFile() throws IOException {
        Path binding = Files.writeString(dir.resolve("hospital.binding"), BINDING);
        return ChartstreamConfig.defaults().with("data.dir", dir.toString()).with("ops.http.port", "0")
                .with("source.binding", binding.toString());
    }

    private static Map<String, Integer> load(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.executeUpdate("create table d_icd_diagnoses (icd_code char(7) not null, icd_version smallint not null,"
                    + " long_title varchar(255), primary key (icd_code, icd_version))");
            s.executeUpdate("create table patients (subject_id integer primary key, gender char(1) not null,"
                    + " anchor_age smallint)");
            s.executeUpdate("create table admissions (hadm_id integer primary key, subject_id integer not null,"
                    + " admittime timestamp not null, admission_type varchar(40) not null)");
            s.executeUpdate("create table diagnoses_icd (subject_id integer not null, hadm_id integer not null,"
                    + " seq_num integer not null, icd_code char(7), icd_version smallint, primary key (hadm_id, seq_num))");
            s.executeUpdate("create table prescriptions (subject_id integer not null, hadm_id integer not null,"
                    + " pharmacy_id integer primary key, drug varchar(255) not null, route varchar(50),"
                    + " starttime timestamp(3))");
            s.executeUpdate("insert into d_icd_diagnoses values ('4019', 9, 'Unspecified essential hypertension'),"
                    + " ('I10', 10, 'Essential (primary) hypertension'),"
                    + " ('40291', 9, 'Unspecified hypertensive heart disease with heart failure'),"
                    + " ('4019', 10, 'A code of another version that must not be joined'),"
                    + " ('E119', 10, 'Type 2 diabetes mellitus without complications')");
            s.executeUpdate("insert into patients values (10000032, 'F', 52), (10000084, 'M', 72), (10000117, 'F', 48)");
            s.executeUpdate("insert into admissions values (22595853, 10000032, '2180-05-06 22:23', 'URGENT'),"
                    + " (29079034, 10000084, '2160-11-21 01:56', 'EW EMER.'), (27988844, 10000117, '2183-09-18 18:10', 'ELECTIVE')");
            s.executeUpdate("insert into diagnoses_icd values (10000032, 22595853, 1, '4019', 9),"
                    + " (10000032, 22595853, 2, 'E119', 10), (10000084, 29079034, 1, 'I10', 10),"
                    + " (10000117, 27988844, 1, '40291', 9)");
            s.executeUpdate("insert into prescriptions values (10000032, 22595853, 1, 'Amoxicillin', 'PO/NG', '2180-05-07 08:00'),"
                    + " (10000084, 29079034, 2, 'Amoxicillin-Clavulanic Acid', 'PO', '2160-11-21 09:00'),"
                    + " (10000117, 27988844, 3, 'Calcium Gluconate', 'IV', '2183-09-19 10:00')");
        }
        return Map.of("d_icd_diagnoses", 5, "patients", 3, "admissions", 3, "diagnoses_icd", 4, "prescriptions", 3);
    }

    @BeforeAll
    static void start() throws IOException {
        runtime = QuestionReplies.startSearchable(boundByFile(), dir, "meanings", DictionaryMeaningsIT::load, REPLY_TOPIC);
    }

    @AfterAll
    static void stop() {
        if (runtime != null) {
            runtime.close();
        }
    }

    @Test
    void aDiagnosisNamedByItsMeaningIsAnsweredFromTheDictionaryForBothCodeVersions() throws Exception {
        try (QueryClient client = new QueryClient(runtime.bootstrapServers(), REPLY_TOPIC)) {
            ReplyEvent reply = QuestionReplies.last(client, "Which patients have essential hypertension?");

            assertThat(reply.getType()).isEqualTo(ReplyType.ANSWER);
            assertThat(reply.getCompleteness()).as("every record of the meanings named, not of every wording")
                    .isEqualTo(AnswerCompleteness.PARTIAL);
            assertThat(reply.getSetResult().getComplete()).isTrue();
            assertThat(reply.getSetResult().getConcepts()).anySatisfy(c -> assertThat(c)
                    .contains("Unspecified essential hypertension", "Essential (primary) hypertension"));
            assertThat(reply.getSetResult().getOutput()).isEqualTo(SetOutput.PATIENTS);
            assertThat(reply.getSetResult().getPatientsListed()).containsExactlyInAnyOrder("10000032", "10000084");
            assertThat(reply.getCitations()).extracting(Citation::getTableName).containsOnly("diagnoses_icd");
            assertThat(reply.getCitations()).extracting(Citation::getText).allSatisfy(text ->
                    assertThat(text).containsIgnoringCase("essential").doesNotContain("another version"));
        }
    }

    @Test
    void theRoutesOfEveryOrderOfADrugAreTheValuesAskedFor() throws Exception {
        try (QueryClient client = new QueryClient(runtime.bootstrapServers(), REPLY_TOPIC)) {
            ReplyEvent reply = QuestionReplies.last(client, "How is amoxicillin administered?");

            assertThat(reply.getType()).isEqualTo(ReplyType.ANSWER);
            assertThat(reply.getSetResult().getOutput()).isEqualTo(SetOutput.VALUES);
            assertThat(reply.getSetResult().getField()).isEqualTo("route");
            assertThat(reply.getSetResult().getValues()).extracting(SetValue::getValue)
                    .containsExactlyInAnyOrder("PO/NG", "PO");
            assertThat(reply.getText()).contains("PO/NG").doesNotContain("IV");
        }
    }

    @Test
    void anAdmissionNumberScopesTheQuestionToThatAdmissionsRows() throws Exception {
        try (QueryClient client = new QueryClient(runtime.bootstrapServers(), REPLY_TOPIC)) {
            ReplyEvent reply = QuestionReplies.last(client, "What diagnoses were recorded during admission 22595853?");

            assertThat(reply.getType()).isEqualTo(ReplyType.ANSWER);
            assertThat(reply.getCompleteness()).isEqualTo(AnswerCompleteness.COMPLETE);
            assertThat(reply.getSetResult().getRows()).isEqualTo(2);
            assertThat(reply.getCitations()).hasSize(2).allSatisfy(c -> {
                assertThat(c.getTableName()).isEqualTo("diagnoses_icd");
                assertThat(c.getText()).contains("22595853");
            });
            assertThat(reply.getText()).contains("Unspecified essential hypertension")
                    .contains("Type 2 diabetes mellitus without complications");
        }
    }
}

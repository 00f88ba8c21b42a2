package org.chartstream.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.chartstream.connectors.SourceConnection;
import org.chartstream.connectors.SourceKind;
import org.chartstream.core.binding.TableRole;
import org.chartstream.ingest.normalize.SourceRegistration;
import org.chartstream.ingest.project.PatientIdentityColumns;
import org.chartstream.ingest.project.TableProjection;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.runtime.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SourceRegistrationsTest {

    @Test
    void theDefaultsRegisterOneEmbeddedPostgresSource() {
        ChartstreamConfig config = ChartstreamConfig.defaults();

        List<SourceRegistration> sources = SourceRegistrations.all(config);

        assertThat(sources).singleElement().satisfies(s -> {
            assertThat(s.sourceId()).isEqualTo("ehr");
            assertThat(s.kind()).isEqualTo("postgres");
            assertThat(s.topicPrefix()).isEqualTo("ehr");
            assertThat(s.tables()).containsOnlyKeys("patients", "encounters", "conditions", "medications", "clinical_notes");
            assertThat(s.patientIdentity().table()).isEqualTo("patients");
            assertThat(SourceRegistrations.indexedTables(s)).containsExactly("patients", "encounters", "conditions", "medications", "clinical_notes");
        });
        assertThat(SourceRegistrations.connection(config, "ehr")).isEmpty();
    }

    @Test
    void anEmbeddedSourcesChangeTopicsNameItsConfiguredSchema() {
        ChartstreamConfig config = ChartstreamConfig.defaults().with("source.schema", "clinic").with("source.tables", "visits");
        assertThat(SourceRegistrations.changeTopics(config)).containsExactly(Map.entry("ehr:visits", "ehr.clinic.visits"));
        assertThat(SourceRegistrations.changeTopics(ChartstreamConfig.defaults())).containsEntry("ehr:patients", "ehr.public.patients");
    }

    @Test
    void theIngestSideReadsDebeziumNotificationsFromTheTopicTheConnectorWritesThemTo() {
        SourceRegistration ehr = SourceRegistrations.all(ChartstreamConfig.defaults()).get(0);
        assertThat(ehr.notificationTopic())
                .isEqualTo(org.chartstream.connectors.DebeziumConfigs.notificationTopic(ehr.topicPrefix()));
    }

    @Test
    void severalSourcesEachWithConnectionAllowListsExclusionsAndPatientIdentity(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("c.properties");
        Files.writeString(file, """
                sources=ehr,clinic
                source.ehr.tables=patients,clinical_notes
                source.ehr.excluded-fields=clinical_notes.ssn,patients.ssn
                source.ehr.fields.clinical_notes=chief_complaint,note_text
                source.clinic.kind=mariadb
                source.clinic.host=db.clinic.local
                source.clinic.database=clinic
                source.clinic.user=dbz
                source.clinic.password=s3cret
                source.clinic.tables=persons,visits
                source.clinic.patient-table=persons
                source.clinic.patient-id-column=person_id
                source.clinic.patient-name-columns=given,family
                source.clinic.patient-number-column=mrn
                """);
        ChartstreamConfig config = ChartstreamConfig.load(file, Map.of());

        List<SourceRegistration> sources = SourceRegistrations.all(config);

        assertThat(sources).extracting(SourceRegistration::sourceId).containsExactly("ehr", "clinic");
        SourceRegistration ehr = sources.get(0);
        assertThat(ehr.table("clinical_notes")).contains(new TableProjection("clinical_notes",
                List.of("chief_complaint", "note_text"), java.util.Set.of("ssn"), "patient_id"));
        assertThat(ehr.table("patients").orElseThrow().excluded()).containsExactly("ssn");
        SourceRegistration clinic = sources.get(1);
        assertThat(clinic.kind()).isEqualTo("mariadb");
        assertThat(clinic.topicPrefix()).isEqualTo("clinic");
        assertThat(clinic.patientIdentity().idColumn()).isEqualTo("person_id");
        assertThat(clinic.patientIdentity().nameColumns()).containsExactly("given", "family");
        assertThat(clinic.table("visits").orElseThrow().patientColumn()).isEqualTo("person_id");

        SourceConnection connection = SourceRegistrations.connection(config, "clinic").orElseThrow();
        assertThat(connection.kind()).isEqualTo(SourceKind.MARIADB);
        assertThat(connection.port()).isEqualTo(3306);
        assertThat(connection.namespace()).isEqualTo("clinic");
        assertThat(connection.tables()).containsExactly("persons", "visits");
        assertThat(SourceRegistrations.connection(config, "ehr")).isEmpty();
        assertThat(config.describe().values()).noneMatch(v -> v.contains("s3cret"));
    }

    @Test
    void aNonPostgresSourceNeedsAHostAndBadEntriesNameTheirKey() {
        ChartstreamConfig maria = ChartstreamConfig.defaults().with("source.kind", "mariadb");
        assertThatThrownBy(() -> SourceRegistrations.connection(maria, "ehr"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("source.host");
        assertThatThrownBy(() -> SourceRegistrations.registration(
                ChartstreamConfig.defaults().with("source.excluded-fields", "ssn"), "ehr"))
                .hasMessageContaining("'ssn' is not table.field");
        assertThatThrownBy(() -> ChartstreamConfig.defaults().with("sources", "a,a"))
                .hasMessageContaining("lists a source twice");
        assertThatThrownBy(() -> ChartstreamConfig.defaults().with("sources", "a").with("source.a.tables", "t").with("source.a.kind", "oracle"))
                .hasMessageContaining("source.a.kind");
    }

    @Test
    void aBindingFileGivesEveryBoundTableItsProjectionThePatientIdentityAndTheCapturedTablesWithTheDictionaries() {
        String mimic = Path.of("..", "datasets", "src", "main", "resources", "org", "chartstream", "datasets", "mimic",
                "mimic-iv-demo.binding").toString();
        ChartstreamConfig config = ChartstreamConfig.defaults().with("source.schema", "mimiciv_hosp").with("source.binding", mimic);

        SourceRegistration ehr = SourceRegistrations.from(config);

        assertThat(ehr.binding().tables()).hasSize(11);
        assertThat(ehr.tables()).containsOnlyKeys(ehr.binding().tables().keySet());
        ehr.binding().tables().values().forEach(table ->
                assertThat(ehr.table(table.table())).contains(TableProjection.of(table)));
        assertThat(ehr.table("d_icd_diagnoses").orElseThrow().binding().role()).isEqualTo(TableRole.DICTIONARY);
        assertThat(ehr.table("labevents").orElseThrow().allows("valuenum")).isTrue();
        assertThat(ehr.table("labevents").orElseThrow().allows("order_provider_id")).as("not in the binding's fields").isFalse();
        assertThat(ehr.table("labevents").orElseThrow().patientColumn()).isEqualTo("subject_id");
        assertThat(ehr.patientIdentity()).isEqualTo(new PatientIdentityColumns("patients", "subject_id", List.of(), "subject_id"));
        assertThat(SourceRegistrations.indexedTables(ehr)).as("the dictionaries are joined, not indexed").containsExactly(
                "patients", "admissions", "transfers", "diagnoses_icd", "procedures_icd", "prescriptions", "microbiologyevents", "labevents");

        Map<String, String> topics = SourceRegistrations.changeTopics(config);
        assertThat(topics).hasSize(11).containsEntry("ehr:d_labitems", "ehr.mimiciv_hosp.d_labitems")
                .containsEntry("ehr:labevents", "ehr.mimiciv_hosp.labevents");
        assertThat(List.copyOf(topics.keySet())).startsWith("ehr:d_icd_diagnoses", "ehr:d_icd_procedures", "ehr:d_labitems", "ehr:patients");
    }

    @Test
    void aSelectionOfBoundTablesRegistersThemWithTheDictionariesTheyUse() {
        ChartstreamConfig config = ChartstreamConfig.defaults()
                .with("source.binding", "classpath:org/chartstream/runtime/config/clinic.binding").with("source.tables", "visits");

        SourceRegistration ehr = SourceRegistrations.from(config);

        assertThat(ehr.tables()).containsOnlyKeys("visits");
        assertThat(ehr.patientIdentity()).as("the patient table is not captured").isNull();
        assertThat(ehr.table("visits").orElseThrow().fields()).containsExactly("reason", "visited_at");
        assertThat(SourceRegistrations.changeTopics(config)).containsOnlyKeys("ehr:visits");
    }
}

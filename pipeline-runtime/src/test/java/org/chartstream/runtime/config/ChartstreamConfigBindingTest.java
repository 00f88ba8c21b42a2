package org.chartstream.runtime.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.chartstream.core.binding.SourceBinding;
import org.chartstream.core.binding.TableBinding;
import org.chartstream.core.binding.TableRole;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code source[.<id>].binding}: the keys a binding file says come from it (every reader of them sees the binding),
 * setting one of them as well is refused naming both keys, and {@code source.tables} selects bound tables.
 */
class ChartstreamConfigBindingTest {
    private static final String CLINIC = "classpath:org/chartstream/runtime/config/clinic.binding";
    private static final String MIMIC = BindingFileTest.MIMIC.toString();

    @Test
    void theBindingFileGivesTheTablesPatientKeysFieldsAndExclusionsAndSaysSo() {
        ChartstreamConfig c = ChartstreamConfig.defaults().with("source.binding", CLINIC);

        assertThat(c.tables()).containsExactly("persons", "visits");
        assertThat(c.string("source.patient-table")).isEqualTo("persons");
        assertThat(c.string("source.patient-id-column")).isEqualTo("person_id");
        assertThat(c.list("source.patient-name-columns")).containsExactly("given", "family");
        assertThat(c.string("source.patient-number-column")).isEqualTo("mrn");
        assertThat(c.string("source.patient-birth-date-column")).isEqualTo("born");
        assertThat(c.list("source.excluded-fields")).containsExactly("persons.ssn");
        assertThat(c.allowedFields("ehr", "visits")).containsExactly("reason", "visited_at");
        assertThat(c.allowedFields("ehr", "persons")).isEmpty();
        assertThat(c.describe().get("source.tables")).isEqualTo("persons,visits  (derived from binding file " + CLINIC + ")");
        assertThat(c.describe().get("source.binding")).isEqualTo(CLINIC + "  (command line)");
        assertThat(SourceBindings.of(c, "ehr").patientTable().orElseThrow().birthDateColumn()).isEqualTo("born");
    }

    @Test
    void withoutABindingTheKeysKeepTheirDefaultsAndUnsettingItRestoresThem() {
        ChartstreamConfig bound = ChartstreamConfig.defaults().with("source.binding", CLINIC);
        ChartstreamConfig unbound = bound.with("source.binding", "");
        assertThat(unbound.describe()).isEqualTo(ChartstreamConfig.defaults().with("source.binding", "").describe());
        assertThat(unbound.allowedFields("ehr", "visits")).isEmpty();
        TableBinding patients = SourceBindings.of(ChartstreamConfig.defaults(), "ehr").patientTable().orElseThrow();
        assertThat(patients.table()).isEqualTo("patients");
        assertThat(patients.birthDateColumn()).as("the birth year of a patient's label").isEqualTo("birth_date");
        assertThat(SourceBindings.of(ChartstreamConfig.defaults().with("source.patient-birth-date-column", ""), "ehr")
                .patientTable().orElseThrow().birthDateColumn()).isNull();
    }

    @Test
    void aKeyTheBindingFileSaysIsRefusedWhenSetAsWellNamingBothKeys(@TempDir Path dir) throws Exception {
        ChartstreamConfig bound = ChartstreamConfig.defaults().with("source.binding", CLINIC);
        for (String key : new String[] {"source.patient-table", "source.patient-id-column", "source.patient-name-columns",
                "source.patient-number-column", "source.patient-birth-date-column", "source.excluded-fields", "source.fields.visits"}) {
            assertThatThrownBy(() -> bound.with(key, "x.y")).as(key).isInstanceOf(ConfigException.class)
                    .hasMessageContaining("'" + key + "' (from command line)")
                    .hasMessageContaining("'source.binding' (from command line)");
        }
        Path user = Files.writeString(dir.resolve("user.properties"), "source.patient-number-column=mrn\n");
        assertThatThrownBy(() -> ChartstreamConfig.load(user, Map.of())
                .underlay(Map.of("source.binding", CLINIC), "dataset clinic"))
                .hasMessageContaining("'source.patient-number-column' (from " + user + ")")
                .hasMessageContaining("'source.binding' (from dataset clinic)");
    }

    @Test
    void sourceTablesSelectsBoundTablesAndTheDictionariesTheyUseComeAlong() {
        ChartstreamConfig c = ChartstreamConfig.defaults().with("source.binding", MIMIC)
                .with("source.tables", "patients,admissions,diagnoses_icd");

        assertThat(c.tables()).containsExactly("d_icd_diagnoses", "patients", "admissions", "diagnoses_icd");
        SourceBinding binding = SourceBindings.of(c, "ehr");
        assertThat(binding.tables()).containsOnlyKeys("d_icd_diagnoses", "patients", "admissions", "diagnoses_icd");
        assertThat(binding.table("d_icd_diagnoses").orElseThrow().role()).isEqualTo(TableRole.DICTIONARY);
        assertThat(ChartstreamConfig.defaults().with("source.binding", MIMIC).tables()).hasSize(11);
        assertThatThrownBy(() -> ChartstreamConfig.defaults().with("source.binding", MIMIC).with("source.tables", "patients,chartevents"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'source.tables' (from command line) names table chartevents, which binding file " + MIMIC + " does not bind");
    }

    @Test
    void aListedSourceHasItsOwnBindingAndTheOthersKeepTheirKeys() {
        ChartstreamConfig c = ChartstreamConfig.defaults().with("sources", "ehr,clinic")
                .with("source.clinic.binding", CLINIC);

        assertThat(c.sourceList("clinic", "tables")).containsExactly("persons", "visits");
        assertThat(c.sourceValue("clinic", "patient-number-column")).isEqualTo("mrn");
        assertThat(c.allowedFields("clinic", "visits")).containsExactly("reason", "visited_at");
        assertThat(c.sourceList("ehr", "tables")).containsExactly("patients", "encounters", "conditions", "medications", "clinical_notes");
        assertThat(c.sourceValue("ehr", "patient-number-column")).isEqualTo("patient_no");
        assertThat(ChartstreamConfig.isKnown("source.clinic.binding")).isTrue();
        assertThatThrownBy(() -> c.with("source.clinic.patient-table", "visits"))
                .hasMessageContaining("'source.clinic.patient-table'").hasMessageContaining("'source.clinic.binding'");
    }

    @Test
    void aBadBindingFileIsRefusedWhenTheConfigurationLoads(@TempDir Path dir) throws Exception {
        Path binding = Files.writeString(dir.resolve("bad.binding"), "table.visits.role = visit\n");
        assertThatThrownBy(() -> ChartstreamConfig.load(null, Map.of("CHARTSTREAM_SOURCE_BINDING", binding.toString())))
                .isInstanceOf(ConfigException.class)
                .hasMessage("binding file " + binding + ", line 1, key 'table.visits.role': unknown role 'visit'"
                        + " (patient, encounter, event or dictionary)");
    }
}

package org.chartstream.runtime.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.chartstream.core.binding.CodeLookup;
import org.chartstream.core.binding.EmbedPolicy;
import org.chartstream.core.binding.SourceBinding;
import org.chartstream.core.binding.TableBinding;
import org.chartstream.core.binding.TableRole;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The binding file format (docs/BINDING.md) on the two datasets' shipped files, and every malformed line refused
 * with the file, the line and the key.
 */
class BindingFileTest {
    /** The datasets module's resources, read as files: the runtime finds them on the classpath (classpath:...). */
    static final Path DATASETS = Path.of("..", "datasets", "src", "main", "resources", "org", "chartstream", "datasets");
    static final Path MIMIC = DATASETS.resolve("mimic/mimic-iv-demo.binding");
    static final Path SYNTHETIC = DATASETS.resolve("synthetic/synthetic.binding");

    @Test
    void theMimicBindingHasItsElevenTablesInSnapshotOrderWithRolesLookupsAndLabels() {
        SourceBinding mimic = BindingFile.read(MIMIC.toString());

        assertThat(mimic.tables()).containsOnlyKeys("d_icd_diagnoses", "d_icd_procedures", "d_labitems", "patients",
                "admissions", "transfers", "diagnoses_icd", "procedures_icd", "prescriptions", "microbiologyevents", "labevents");
        assertThat(List.copyOf(mimic.tables().keySet())).startsWith("d_icd_diagnoses", "d_icd_procedures", "d_labitems", "patients", "admissions");
        assertThat(mimic.dictionaries()).extracting(TableBinding::table).containsExactly("d_icd_diagnoses", "d_icd_procedures", "d_labitems");
        TableBinding patients = mimic.patientTable().orElseThrow();
        assertThat(patients.table()).isEqualTo("patients");
        assertThat(patients.patientColumn()).isEqualTo("subject_id");
        assertThat(patients.numberColumn()).isEqualTo("subject_id");
        assertThat(patients.nameColumns()).isEmpty();
        assertThat(patients.label("anchor_age")).isEqualTo("age");
        TableBinding admissions = mimic.encounterTable().orElseThrow();
        assertThat(admissions.table()).isEqualTo("admissions");
        assertThat(admissions.role()).isEqualTo(TableRole.ENCOUNTER);
        assertThat(admissions.numberColumn()).isEqualTo("hadm_id");
        assertThat(admissions.patientColumn()).isEqualTo("subject_id");
        assertThat(admissions.timeColumn()).isEqualTo("admittime");
        assertThat(admissions.endColumn()).isEqualTo("dischtime");

        TableBinding diagnoses = mimic.table("diagnoses_icd").orElseThrow();
        assertThat(diagnoses.role()).isEqualTo(TableRole.EVENT);
        assertThat(diagnoses.key()).containsExactly("hadm_id", "seq_num", "icd_code", "icd_version");
        assertThat(diagnoses.encounterColumn()).isEqualTo("hadm_id");
        assertThat(diagnoses.lookups()).containsExactly(new CodeLookup(List.of("icd_code", "icd_version"), "d_icd_diagnoses",
                List.of("icd_code", "icd_version"), "long_title", "diagnosis"));
        assertThat(diagnoses.concept()).isEqualTo("diagnosis");
        assertThat(diagnoses.conceptField()).isEqualTo("diagnosis");
        assertThat(diagnoses.label("hadm_id")).isEqualTo("admission");
        assertThat(diagnoses.showsExplicitly("hadm_id")).isTrue();

        TableBinding procedures = mimic.table("procedures_icd").orElseThrow();
        assertThat(procedures.timeColumn()).isEqualTo("chartdate");
        assertThat(procedures.lookups()).singleElement().satisfies(l -> {
            assertThat(l.dictionary()).isEqualTo("d_icd_procedures");
            assertThat(l.field()).isEqualTo("procedure");
        });

        TableBinding prescriptions = mimic.table("prescriptions").orElseThrow();
        assertThat(prescriptions.timeColumns()).containsExactly("starttime", "stoptime");
        assertThat(prescriptions.endColumn()).isEqualTo("stoptime");
        assertThat(prescriptions.concept()).isEqualTo("medication");
        assertThat(prescriptions.conceptField()).isEqualTo("drug");
        assertThat(prescriptions.fieldTerms()).containsEntry("route", List.of("administered", "given", "route of administration"));
        assertThat(prescriptions.fields()).containsSubsequence("drug", "route").contains("starttime", "stoptime", "hadm_id");

        TableBinding labs = mimic.table("labevents").orElseThrow();
        assertThat(labs.lookups()).extracting(CodeLookup::field).containsExactly("lab_test", "fluid", "category");
        assertThat(labs.lookups()).allSatisfy(l -> {
            assertThat(l.dictionary()).isEqualTo("d_labitems");
            assertThat(l.codeColumns()).containsExactly("itemid");
        });
        assertThat(labs.lookups()).extracting(CodeLookup::meaningColumn).containsExactly("label", "fluid", "category");
        assertThat(labs.embed()).isEqualTo(EmbedPolicy.fields(List.of("lab_test", "fluid", "category")));
        assertThat(mimic.indexed()).extracting(TableBinding::table).containsExactly("patients", "admissions", "transfers",
                "diagnoses_icd", "procedures_icd", "prescriptions", "microbiologyevents", "labevents");
        assertThat(mimic.indexed()).allSatisfy(t -> assertThat(t.patientColumn()).isEqualTo("subject_id"));
    }

    @Test
    void everyColumnTheMimicBindingNamesIsAColumnOfItsTableInTheDatasetsDdl() throws Exception {
        Map<String, Set<String>> columns = ddlColumns(Files.readString(MIMIC.resolveSibling("mimic-iv-demo-hosp.sql")));
        SourceBinding mimic = BindingFile.read(MIMIC.toString());
        assertThat(columns).containsOnlyKeys(mimic.tables().keySet());
        for (TableBinding t : mimic.tables().values()) {
            Set<String> own = columns.get(t.table());
            List<String> named = new ArrayList<>(t.key());
            Stream.of(t.patientColumn(), t.encounterColumn(), t.numberColumn(), t.birthDateColumn(), t.endColumn())
                    .filter(Objects::nonNull).forEach(named::add);
            named.addAll(t.nameColumns());
            named.addAll(t.timeColumns());
            named.addAll(t.fields());
            named.addAll(t.excluded());
            t.lookups().forEach(l -> named.addAll(l.codeColumns()));
            assertThat(own).as("columns of %s", t.table()).containsAll(named);
            Set<String> shown = new HashSet<>(own);
            t.lookups().forEach(l -> shown.add(l.field()));
            assertThat(shown).as("labelled, termed and concept fields of %s", t.table()).containsAll(t.labels().keySet())
                    .containsAll(t.fieldTerms().keySet()).containsAll(t.embed().fields());
            if (t.conceptField() != null) {
                assertThat(shown).contains(t.conceptField());
            }
            for (CodeLookup l : t.lookups()) {
                assertThat(columns.get(l.dictionary())).as("columns of %s", l.dictionary())
                        .containsAll(l.dictionaryColumns()).contains(l.meaningColumn());
            }
        }
    }

    /** The columns of each {@code CREATE TABLE schema.table (...)} of a DDL script, by table. */
    private static Map<String, Set<String>> ddlColumns(String ddl) {
        Map<String, Set<String>> columns = new LinkedHashMap<>();
        Matcher table = Pattern.compile("CREATE TABLE \\w+\\.(\\w+)\\s*\\((.*?)\\);", Pattern.DOTALL).matcher(ddl);
        while (table.find()) {
            Set<String> names = new HashSet<>();
            for (String line : table.group(2).split("\n")) {
                String first = line.strip().split("\\s+")[0];
                if (!first.isEmpty() && !first.equals("CONSTRAINT")) {
                    names.add(first);
                }
            }
            columns.put(table.group(1), names);
        }
        return columns;
    }

    @Test
    void theSyntheticBindingNamesItsFiveTablesAndShowsEveryColumnUnlabelled() {
        SourceBinding synthetic = BindingFile.read(SYNTHETIC.toString());

        assertThat(List.copyOf(synthetic.tables().keySet()))
                .containsExactly("patients", "encounters", "conditions", "medications", "clinical_notes");
        TableBinding patients = synthetic.patientTable().orElseThrow();
        assertThat(patients.patientColumn()).isEqualTo("patient_id");
        assertThat(patients.numberColumn()).isEqualTo("patient_no");
        assertThat(patients.nameColumns()).containsExactly("first_name", "last_name");
        assertThat(patients.birthDateColumn()).isEqualTo("birth_date");
        assertThat(synthetic.encounterTable().orElseThrow().numberColumn()).isEqualTo("encounter_no");
        TableBinding medications = synthetic.table("medications").orElseThrow();
        assertThat(medications.concept()).isEqualTo("medication");
        assertThat(medications.timeColumn()).isEqualTo("start_date");
        assertThat(medications.endColumn()).isEqualTo("stop_date");
        assertThat(synthetic.table("conditions").orElseThrow().conceptField()).isEqualTo("description");
        assertThat(synthetic.tables().values()).allSatisfy(t -> {
            assertThat(t.fields()).as("every column shown, as the defaults show them").isEmpty();
            assertThat(t.labels()).isEmpty();
            assertThat(t.embed()).isEqualTo(EmbedPolicy.ROW);
            assertThat(t.patientColumn()).isEqualTo("patient_id");
        });
    }

    @Test
    void commentsBlankLinesAndSpacesAroundTheEqualsSignAreAllowedAndTablesKeepFileOrder() {
        SourceBinding b = BindingFile.parse("b", """
                # a comment
                table.visits.role=event

                   table.people.role   =   patient
                table.people.patient = person_id
                table.visits.patient = person_id
                """);
        assertThat(List.copyOf(b.tables().keySet())).containsExactly("visits", "people");
        assertThat(b.patientTable().orElseThrow().patientColumn()).isEqualTo("person_id");
        assertThat(BindingFile.parse("windows.binding", "\uFEFFtable.visits.role = event\r\ntable.visits.label.x = a # b\r\n")
                .table("visits").orElseThrow().label("x")).as("a byte order mark, CRLF, and a # inside a value").isEqualTo("a # b");
    }

    @Test
    void aFileIsReadFromAPathOrTheClasspathAndAMissingOneIsNamed(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("clinic.binding"), "table.visits.role = event\n");
        assertThat(BindingFile.read(file.toString()).tables()).containsOnlyKeys("visits");
        assertThat(BindingFile.read("classpath:org/chartstream/runtime/config/clinic.binding").tables())
                .containsOnlyKeys("persons", "visits");
        assertThatThrownBy(() -> BindingFile.read(dir.resolve("none.binding").toString()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("none.binding");
        assertThatThrownBy(() -> BindingFile.read("classpath:no/such.binding"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("classpath:no/such.binding");
        assertThatThrownBy(() -> BindingFile.parse("empty.binding", "# nothing\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("empty.binding").hasMessageContaining("binds no table");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            unknown attribute           | table.t.colour = red                                  | table.t.colour         | unknown attribute 'colour'
            unknown per-column attribute| table.t.width.x = 3                                   | table.t.width.x        | unknown attribute 'width.x'
            unknown role                | table.u.role = lab                                    | table.u.role           | unknown role 'lab'
            not table.<t>.<attribute>   | tables.t.role = event                                 | tables.t.role          | is not 'table.<table>.<attribute>'
            no equals sign              | table.t.role event                                    | table.t.role event     | is not 'table.<table>.<attribute> = <value>'
            bad table name              | table.t-1.role = event                                | table.t-1.role         | which is not a table name
            lookup without arrow        | table.t.lookup.meaning = code d(code).title           | table.t.lookup.meaning | does not parse
            lookup without meaning      | table.t.lookup.meaning = code -> d(code)              | table.t.lookup.meaning | does not parse
            lookup arity mismatch       | table.t.lookup.meaning = code, version -> d(code).title | table.t.lookup.meaning | names 2 code column(s) but 1 key column(s) of d
            lookup of no dictionary     | table.t.lookup.meaning = code -> missing(code).title  | table.t.lookup.meaning | names dictionary missing, which is not a table of this file with role dictionary
            lookup of an event table    | table.t.lookup.meaning = code -> e(code).title        | table.t.lookup.meaning | names dictionary e
            lookup field is a column    | table.t.lookup.a = a -> d(a).title                    | table.t.lookup.a       | gives the row field 'a', which is a column table.t.fields shows
            via without encounter       | table.t.via = admissions                              | table.t.via            | needs table.t.encounter
            via of a non-encounter      | table.t.via = e                                       | table.t.via            | names e, which is not a table of this file with role encounter
            column listed twice         | table.e.fields = a, b, a                              | table.e.fields         | lists 'a' twice
            shown and excluded          | table.t.exclude = b                                   | table.t.exclude        | lists 'b', which table.t.fields shows
            one name expected           | table.t.patient = a, b                                | table.t.patient        | is not one name
            empty value                 | table.t.concept =                                     | table.t.concept        | needs a value
            bad embed policy            | table.t.embed = everything                            | table.t.embed          | neither 'row' nor 'fields:
            embed of a field not shown  | table.t.embed = fields: c                             | table.t.embed          | names 'c', which is neither a shown field
            attribute of another role   | table.t.name = first, last                            | table.t.name           | does not apply to a table of role event
            duplicate key               | table.t.role = event                                  | table.t.role           | is set twice (first on line 3)
            """)
    void aMalformedLineIsRefusedNamingFileLineAndKey(String kind, String line, String key, String what) {
        String text = """
                table.admissions.role = encounter
                table.admissions.number = hadm_id
                table.t.role = event
                table.t.fields = a, b
                table.e.role = event
                """ + line + "\n" + """
                table.admissions.patient = subject_id
                table.d.role = dictionary
                """;
        assertThatThrownBy(() -> BindingFile.parse("clinic.binding", text)).as(kind)
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("binding file clinic.binding, line 6, key '" + key + "': ")
                .hasMessageContaining(what);
    }

    @Test
    void aTableWithoutARoleIsNamedAtItsFirstLine() {
        assertThatThrownBy(() -> BindingFile.parse("clinic.binding", """
                table.visits.role = event

                table.notes.fields = text
                table.notes.patient = person_id
                """)).isInstanceOf(ConfigException.class)
                .hasMessage("binding file clinic.binding, line 3, key 'table.notes.fields': table notes has no role"
                        + " (table.notes.role = patient | encounter | event | dictionary)");
    }

    @Test
    void anEncounterTableNamesItsPatientAndNumberColumns() {
        assertThatThrownBy(() -> BindingFile.parse("b", "table.admissions.role = encounter\ntable.admissions.number = hadm_id\n"))
                .hasMessageContaining("line 1, key 'table.admissions.role'").hasMessageContaining("table.admissions.patient");
        assertThatThrownBy(() -> BindingFile.parse("b", "table.admissions.role = encounter\ntable.admissions.patient = subject_id\n"))
                .hasMessageContaining("line 1, key 'table.admissions.role'").hasMessageContaining("table.admissions.number");
    }

    @Test
    void aPatientTableNamesItsIdColumnAndASourceHasOnlyOne() {
        assertThatThrownBy(() -> BindingFile.parse("b", "table.people.role = patient\n"))
                .hasMessageContaining("line 1, key 'table.people.role'").hasMessageContaining("table.people.patient");
        assertThatThrownBy(() -> BindingFile.parse("b", """
                table.people.role = patient
                table.people.patient = id
                table.persons.role = patient
                table.persons.patient = id
                """)).hasMessageContaining("line 3, key 'table.persons.role'").hasMessageContaining("people is one already");
    }

    @Test
    void aTableReachedThroughAnEncounterTableAndADictionaryDeclaredLaterAreBound() {
        SourceBinding b = BindingFile.parse("b", """
                table.admissions.role = encounter
                table.admissions.number = hadm_id
                table.admissions.patient = subject_id
                table.diagnoses.role = event
                table.diagnoses.encounter = hadm_id
                table.diagnoses.via = admissions
                table.diagnoses.lookup.diagnosis = icd_code , icd_version->dx( icd_code,icd_version ) . long_title
                table.diagnoses.label.diagnosis = diagnosis (ICD)
                table.dx.role = dictionary
                """);
        TableBinding diagnoses = b.table("diagnoses").orElseThrow();
        assertThat(diagnoses.patientVia()).isEqualTo("admissions");
        assertThat(diagnoses.patientColumn()).isNull();
        assertThat(diagnoses.lookups()).containsExactly(new CodeLookup(List.of("icd_code", "icd_version"), "dx",
                List.of("icd_code", "icd_version"), "long_title", "diagnosis"));
        assertThat(diagnoses.labels()).isEqualTo(Map.of("diagnosis", "diagnosis (ICD)"));
    }
}

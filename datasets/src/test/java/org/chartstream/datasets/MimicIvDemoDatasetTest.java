package org.chartstream.datasets;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The MIMIC-IV demo as {@code run --dataset mimic-iv-demo} finds it: the tables its DDL creates, parents before the
 * tables whose foreign keys name them; a file for each in the repository's copy, with the hash SHA256SUMS records
 * (a fresh clone carries what the load needs); the source configuration shipped with it.
 */
class MimicIvDemoDatasetTest {
    private static final Pattern REFERENCES = Pattern.compile("REFERENCES\\s+([a-z_]+\\.[a-z_]+)");

    @Test
    void theDdlCreatesTheElevenTablesWithEveryParentBeforeItsChildren() {
        CsvTablesDataset mimic = Datasets.mimicIvDemo();
        List<String> tables = mimic.tables();
        assertThat(tables).containsExactly("mimiciv_hosp.d_icd_diagnoses", "mimiciv_hosp.d_icd_procedures",
                "mimiciv_hosp.d_labitems", "mimiciv_hosp.patients", "mimiciv_hosp.admissions", "mimiciv_hosp.transfers",
                "mimiciv_hosp.diagnoses_icd", "mimiciv_hosp.procedures_icd", "mimiciv_hosp.prescriptions",
                "mimiciv_hosp.microbiologyevents", "mimiciv_hosp.labevents");
        String ddl = mimic.ddl();
        for (String table : tables) {
            int start = ddl.indexOf("CREATE TABLE " + table);
            String body = ddl.substring(start, ddl.indexOf(");", start));
            Matcher m = REFERENCES.matcher(body);
            while (m.find()) {
                assertThat(tables.indexOf(m.group(1))).as("%s references %s", table, m.group(1))
                        .isLessThan(tables.indexOf(table));
            }
        }
    }

    @Test
    void theRepositoryCarriesEveryTableFileWithTheHashSha256SumsRecords() throws Exception {
        Path hosp = BundledData.find(List.of(Datasets.MIMIC_IV_DEMO_FOLDER), "patients.csv.gz").orElseThrow();
        List<String> sums = Files.readAllLines(hosp.getParent().resolve("SHA256SUMS"));
        assertThat(sums).hasSize(11);
        for (String table : Datasets.mimicIvDemo().tables()) {
            String file = "hosp/" + table.substring(table.indexOf('.') + 1) + ".csv.gz";
            assertThat(sums).contains(sha256(hosp.getParent().resolve(file)) + "  " + file);
        }
        assertThat(hosp.getParent().resolve("LICENSE.txt")).content().contains("Open Database License");
    }

    @Test
    void itsConfigurationNamesItsSchemaAndItsShippedBindingFile() throws Exception {
        assertThat(Datasets.mimicIvDemo().configuration())
                .containsEntry("source.schema", "mimiciv_hosp")
                .containsEntry("source.binding", "classpath:org/chartstream/datasets/mimic/mimic-iv-demo.binding")
                .hasSize(2);
        String binding = Datasets.mimicIvDemo().configuration().get("source.binding").substring("classpath:".length());
        try (InputStream in = getClass().getClassLoader().getResourceAsStream(binding)) {
            assertThat(in).as(binding).isNotNull();
            String text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            for (String table : Datasets.mimicIvDemo().tables()) {
                assertThat(text).as("the binding binds %s", table)
                        .contains("table." + table.substring(table.indexOf('.') + 1) + ".role = ");
            }
        }
    }

    @Test
    void datasetsAreKnownByNameAndAnUnknownNameIsNone() {
        assertThat(Datasets.names()).containsExactly("synthetic", "mimic-iv-demo");
        for (String name : Datasets.names()) {
            assertThat(Datasets.named(name, () -> null)).get().extracting(Dataset::name).isEqualTo(name);
        }
        assertThat(Datasets.named("mimic", () -> null)).isEmpty();
    }

    private static String sha256(Path file) throws Exception {
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        try (InputStream in = Files.newInputStream(file)) {
            digest.update(in.readAllBytes());
        }
        return HexFormat.of().formatHex(digest.digest());
    }
}

package org.chartstream.datasets;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The synthetic dataset's binding file (its format: docs/BINDING.md, parsed and checked by the runtime's
 * BindingFile) names the tables of {@link ClinicalSchema} in load order, and only columns those tables have.
 */
class SyntheticBindingTest {
    static final String RESOURCE = "org/chartstream/datasets/synthetic/synthetic.binding";
    private static final Pattern LINE = Pattern.compile("table\\.(\\w+)\\.([\\w-]+)\\s*=\\s*(.*)");
    private static final Set<String> COLUMN_VALUED = Set.of("key", "patient", "encounter", "number", "name", "birth-date",
            "time", "end", "fields", "exclude", "concept-field");

    @Test
    void itBindsTheSchemasTablesInLoadOrderByColumnsTheyHave() throws Exception {
        Set<String> tables = new LinkedHashSet<>();
        List<String> checked = new ArrayList<>();
        for (String line : text().split("\\R")) {
            Matcher m = LINE.matcher(line.strip());
            if (line.isBlank() || line.strip().startsWith("#")) {
                continue;
            }
            assertThat(m.matches()).as(line).isTrue();
            tables.add(m.group(1));
            if (COLUMN_VALUED.contains(m.group(2))) {
                List<String> columns = ClinicalSchema.table(m.group(1)).columnNames();
                Arrays.stream(m.group(3).split(",")).map(String::strip).filter(c -> !c.isEmpty()).forEach(column -> {
                    assertThat(columns).as("%s names a column of %s", line, m.group(1)).contains(column);
                    checked.add(column);
                });
            }
        }
        assertThat(List.copyOf(tables)).isEqualTo(ClinicalSchema.TABLES);
        assertThat(checked).contains("patient_no", "first_name", "birth_date", "start_date", "stop_date", "note_date");
    }

    private static String text() throws Exception {
        try (InputStream in = SyntheticBindingTest.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            assertThat(in).as(RESOURCE).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}

package org.chartstream.datasets;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringReader;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class CsvTest {

    static List<List<String>> parse(String s) throws IOException {
        return Csv.parse(new StringReader(s));
    }

    @Test
    void plainFieldsAndLineEndings() throws IOException {
        assertThat(parse("a,b,c\n1,2,3\n")).containsExactly(List.of("a", "b", "c"), List.of("1", "2", "3"));
        assertThat(parse("a,b\r\n1,2\r\n")).containsExactly(List.of("a", "b"), List.of("1", "2"));
        assertThat(parse("a,b\r1,2")).containsExactly(List.of("a", "b"), List.of("1", "2"));
        assertThat(parse("a,b\n1,2")).containsExactly(List.of("a", "b"), List.of("1", "2"));
    }

    @Test
    void emptyFields() throws IOException {
        assertThat(parse(",\n,x,\n")).containsExactly(List.of("", ""), List.of("", "x", ""));
        assertThat(parse("\"\"\n")).containsExactly(List.of(""));
        assertThat(parse("")).isEmpty();
        assertThat(parse("a\n\nb\n")).containsExactly(List.of("a"), List.of("b"));
    }

    @Test
    void quotedFieldsWithCommasQuotesAndLineBreaks() throws IOException {
        String csv = "id,dialogue,note\r\n"
                + "D1,\"[doctor] hi , martha .\r\n[patient] \"\"fine\"\"\",\"CHIEF COMPLAINT\n\nAnnual exam.\"\r\n"
                + "D2,plain,\"a,b\"\n";
        List<Map<String, String>> rows = Csv.withHeader(parse(csv));
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0)).containsEntry("id", "D1")
                .containsEntry("dialogue", "[doctor] hi , martha .\r\n[patient] \"fine\"")
                .containsEntry("note", "CHIEF COMPLAINT\n\nAnnual exam.");
        assertThat(rows.get(1)).containsEntry("id", "D2").containsEntry("dialogue", "plain")
                .containsEntry("note", "a,b");
    }

    @Test
    void byteOrderMarkAndShortRows() throws IOException {
        List<Map<String, String>> rows = Csv.withHeader(parse("\uFEFFa,b,c\n1,2\n"));
        assertThat(rows).containsExactly(Map.of("a", "1", "b", "2"));
    }
}

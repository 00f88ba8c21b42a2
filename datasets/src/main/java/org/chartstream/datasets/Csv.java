package org.chartstream.datasets;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small RFC 4180 CSV reader: comma-separated fields, fields in double quotes may hold commas, line breaks and
 * doubled quotes ({@code ""}); records end at CRLF, LF or CR outside quotes; a UTF-8 byte-order mark is skipped.
 * Lenient where the RFC is silent: characters after a closing quote are kept, a missing closing quote at the end of
 * input ends the field.
 */
final class Csv {

    private Csv() {
    }

    /** All records of a reader; a trailing line break does not make an empty record. */
    static List<List<String>> parse(Reader in) throws IOException {
        List<List<String>> records = new ArrayList<>();
        List<String> record = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;      // inside a quoted section
        boolean fieldStarted = false; // the current record has content (for blank-line handling)
        int c = in.read();
        if (c == '\uFEFF') {
            c = in.read();
        }
        while (c != -1) {
            char ch = (char) c;
            if (quoted) {
                if (ch == '"') {
                    int next = in.read();
                    if (next == '"') {
                        field.append('"');
                    } else {
                        quoted = false;
                        c = next;
                        continue;
                    }
                } else {
                    field.append(ch);
                }
            } else if (ch == '"') {
                quoted = true;
                fieldStarted = true;
            } else if (ch == ',') {
                record.add(field.toString());
                field.setLength(0);
                fieldStarted = true;
            } else if (ch == '\r' || ch == '\n') {
                if (ch == '\r') {
                    int next = in.read();
                    if (next != '\n') {
                        endRecord(records, record, field, fieldStarted);
                        record = new ArrayList<>();
                        fieldStarted = false;
                        c = next;
                        continue;
                    }
                }
                endRecord(records, record, field, fieldStarted);
                record = new ArrayList<>();
                fieldStarted = false;
            } else {
                field.append(ch);
                fieldStarted = true;
            }
            c = in.read();
        }
        endRecord(records, record, field, fieldStarted || quoted);
        return records;
    }

    private static void endRecord(List<List<String>> records, List<String> record, StringBuilder field,
                                  boolean hasContent) {
        if (hasContent || !record.isEmpty()) {
            record.add(field.toString());
            records.add(record);
        }
        field.setLength(0);
    }

    /**
     * Records of a file with a header line, as header to value maps (missing trailing fields are absent; extra
     * fields are ignored).
     */
    static List<Map<String, String>> readWithHeader(Path file) {
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return withHeader(parse(r));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read CSV " + file, e);
        }
    }

    static List<Map<String, String>> withHeader(List<List<String>> records) {
        List<Map<String, String>> rows = new ArrayList<>();
        if (records.isEmpty()) {
            return rows;
        }
        List<String> header = records.get(0);
        for (List<String> rec : records.subList(1, records.size())) {
            Map<String, String> row = new LinkedHashMap<>();
            for (int i = 0; i < header.size() && i < rec.size(); i++) {
                row.put(header.get(i), rec.get(i));
            }
            rows.add(row);
        }
        return rows;
    }
}

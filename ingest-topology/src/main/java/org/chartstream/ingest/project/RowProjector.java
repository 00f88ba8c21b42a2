package org.chartstream.ingest.project;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.chartstream.core.binding.CodeLookup;
import org.chartstream.core.binding.TableBinding;
import org.chartstream.core.store.PatientLabel;

/**
 * Turns a projected row into the text that is chunked and indexed: {@code label: value} lines of allow-listed
 * fields, without audit columns and opaque ids (unless the table's binding lists them, or it is an encounter's
 * number), keeping business keys, each code resolved through a dictionary followed by its meaning, headed by the
 * patient's name and number (without them a question that names a patient cannot find the patient's encounters).
 * A field's label is the binding's, else its name with spaces.
 */
public final class RowProjector {
    private static final Set<String> AUDIT_COLUMNS = Set.of("created_at", "updated_at", "modified_at", "deleted_at",
            "created_by", "updated_by", "modified_by", "inserted_at", "last_modified", "row_version");
    private static final Pattern DATE_WITH_ZONE = Pattern.compile("^\\d{4}-\\d{2}-\\d{2}Z$");
    private static final Pattern UUID = Pattern.compile("(?i)^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$");
    private static final Pattern LEADING_YEAR = Pattern.compile("^(\\d{4})");

    private RowProjector() {
    }

    /** True for columns whose values are business keys people quote ({@code *_no}, {@code *_number}, {@code *_code}). */
    public static boolean isBusinessKey(String column) {
        String c = column.toLowerCase(Locale.ROOT);
        return c.endsWith("_no") || c.endsWith("_number") || c.endsWith("_code") || c.equals("code");
    }

    /** Debezium renders a DATE as {@code 2024-05-06Z}; the zone means nothing on a date and is dropped. */
    static String displayValue(String value) {
        String v = value.strip();
        return DATE_WITH_ZONE.matcher(v).matches() ? v.substring(0, v.length() - 1) : v;
    }

    static boolean isDropped(String column, String value) {
        String c = column.toLowerCase(Locale.ROOT);
        if (AUDIT_COLUMNS.contains(c) || c.startsWith("_")) {
            return true;
        }
        if (isBusinessKey(c)) {
            return false;
        }
        return c.equals("id") || c.endsWith("_id") || c.endsWith("_uuid") || UUID.matcher(value).matches();
    }

    /** The whole text: {@link #header} then {@link #body}. */
    public static String text(TableProjection projection, Map<String, String> row, PatientIdentity patient) {
        return header(projection, patient) + "\n" + body(projection, row);
    }

    /** What every chunk of the row repeats: the record type and the patient's name and number. */
    public static String header(TableProjection projection, PatientIdentity patient) {
        StringBuilder text = new StringBuilder();
        text.append("record: ").append(projection.table().replace('_', ' '));
        String shown = patient == null ? null : patient.shown();
        if (shown != null) {
            text.append("\npatient: ").append(shown);
        }
        return text.toString();
    }

    /** The row's allow-listed fields as {@code field: value} lines. */
    public static String body(TableProjection projection, Map<String, String> row) {
        StringBuilder text = new StringBuilder();
        TableBinding binding = projection.binding();
        shownFields(projection, row).forEach((column, value) ->
                text.append(binding.label(column)).append(": ").append(value).append('\n'));
        return text.toString().strip();
    }

    /**
     * The patient's label every chunk of the row carries, from the same identity as its {@link #header}: number and
     * name, and the year of birth when the row shows the column its binding names as the birth date (a patient
     * table's) and its value starts with the year. Null for a row without a patient, or a patient known only by id.
     */
    public static PatientLabel label(TableProjection projection, Map<String, String> row, PatientIdentity patient) {
        if (patient == null || (patient.displayName() == null && patient.patientNo() == null)) {
            return null;
        }
        Integer birthYear = null;
        String birthDateColumn = projection.binding().birthDateColumn();
        String birthDate = birthDateColumn == null ? null : shownFields(projection, row).get(birthDateColumn);
        Matcher year = birthDate == null ? null : LEADING_YEAR.matcher(birthDate);
        if (year != null && year.find()) {
            birthYear = Integer.valueOf(year.group(1));
        }
        return PatientLabel.of(patient.patientNo(), patient.displayName(), birthYear);
    }

    /**
     * The fields the row's text shows, in text order, with their display values: what its chunks carry as the row's
     * fields, by column (or lookup field) name (allow-listed, never an excluded or audit column, nor an opaque id
     * unless the binding lists it or it is the table's number). A lookup's field ({@link CodeLookup#field}, present
     * in {@code row} once resolved) follows the last of its code columns, or ends the row when none is in the order.
     */
    public static Map<String, String> shownFields(TableProjection projection, Map<String, String> row) {
        TableBinding binding = projection.binding();
        Map<String, String> shown = new LinkedHashMap<>();
        List<String> order = new ArrayList<>(projection.fields().isEmpty() ? row.keySet() : projection.fields());
        List<CodeLookup> lookups = binding.lookups();
        lookups.forEach(l -> order.remove(l.field()));
        List<String> anchors = lookups.stream().map(l -> lastIn(order, l.codeColumns())).toList();
        for (String column : order) {
            String value = row.get(column);
            if (value != null && !value.isBlank() && projection.allows(column)
                    && (binding.showsExplicitly(column) || column.equals(binding.numberColumn()) || !isDropped(column, value))) {
                shown.put(column, displayValue(value));
            }
            for (int i = 0; i < lookups.size(); i++) {
                if (column.equals(anchors.get(i))) {
                    putMeaning(shown, projection, lookups.get(i), row);
                }
            }
        }
        for (int i = 0; i < lookups.size(); i++) {
            if (anchors.get(i) == null) {
                putMeaning(shown, projection, lookups.get(i), row);
            }
        }
        return shown;
    }

    private static void putMeaning(Map<String, String> shown, TableProjection projection, CodeLookup lookup, Map<String, String> row) {
        String meaning = row.get(lookup.field());
        if (meaning != null && !meaning.isBlank() && !projection.excluded().contains(lookup.field())) {
            shown.put(lookup.field(), displayValue(meaning));
        }
    }

    /** The one of {@code columns} that comes last in {@code order}, or null when none is in it. */
    private static String lastIn(List<String> order, List<String> columns) {
        int last = columns.stream().mapToInt(order::indexOf).max().orElse(-1);
        return last < 0 ? null : order.get(last);
    }
}

package org.chartstream.ingest.project;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.chartstream.core.store.PatientLabel;

/**
 * Turns a projected row into the text that is chunked and indexed: {@code field: value} lines of allow-listed
 * fields, without audit columns and opaque ids, keeping business keys, headed by the patient's name and number
 * (without them a question that names a patient cannot find the patient's encounters).
 */
public final class RowProjector {
    private static final Set<String> AUDIT_COLUMNS = Set.of("created_at", "updated_at", "modified_at", "deleted_at",
            "created_by", "updated_by", "modified_by", "inserted_at", "last_modified", "row_version");
    private static final Pattern DATE_WITH_ZONE = Pattern.compile("^\\d{4}-\\d{2}-\\d{2}Z$");
    private static final Pattern UUID = Pattern.compile("(?i)^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$");
    /** Columns holding a birth date, as the clarification list names them ({@code born 1961}). */
    private static final Pattern BIRTH_DATE_COLUMN = Pattern.compile("(?i)birth_?date|date_of_birth|dob");
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
        shownFields(projection, row).forEach((column, value) ->
                text.append(column.replace('_', ' ')).append(": ").append(value).append('\n'));
        return text.toString().strip();
    }

    /**
     * The patient's label every chunk of the row carries, from the same identity as its {@link #header}: number and
     * name, and the year of birth when the row shows a birth date column ({@code birth_date}, {@code date_of_birth},
     * {@code dob}) whose value starts with the year. Null for a row without a patient, or a patient known only by id.
     */
    public static PatientLabel label(TableProjection projection, Map<String, String> row, PatientIdentity patient) {
        if (patient == null || (patient.displayName() == null && patient.patientNo() == null)) {
            return null;
        }
        Integer birthYear = null;
        for (Map.Entry<String, String> field : shownFields(projection, row).entrySet()) {
            Matcher year = LEADING_YEAR.matcher(field.getValue());
            if (BIRTH_DATE_COLUMN.matcher(field.getKey()).matches() && year.find()) {
                birthYear = Integer.valueOf(year.group(1));
                break;
            }
        }
        return PatientLabel.of(patient.patientNo(), patient.displayName(), birthYear);
    }

    /**
     * The fields the row's text shows, in text order, with their display values: what its chunks carry as the row's
     * fields (allow-listed, never an excluded, audit or opaque id column).
     */
    public static Map<String, String> shownFields(TableProjection projection, Map<String, String> row) {
        Map<String, String> shown = new LinkedHashMap<>();
        Iterable<String> order = projection.fields().isEmpty() ? row.keySet() : projection.fields();
        for (String column : order) {
            String value = row.get(column);
            if (value == null || value.isBlank() || !projection.allows(column) || isDropped(column, value)) {
                continue;
            }
            shown.put(column, displayValue(value));
        }
        return shown;
    }
}

package org.chartstream.retrieval.cohort;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.retrieval.Completeness;

/**
 * Every row holding a cohort question's anchor (up to the cap), grouped by patient.
 *
 * @param anchor     the term the rows hold (the corrected one when the question's word matched nothing)
 * @param asked      the question's own word when it matched nothing and {@code anchor} is the nearest indexed word;
 *                   {@code null} otherwise
 * @param tables     the tables the rows were looked up in, when the question's verb narrowed them; empty otherwise
 * @param rows       the listed rows, one chunk each (the first that holds the anchor), in row id order
 * @param total      every row holding the anchor, also those past the cap
 * @param cap        the cap in force
 */
public record Cohort(String anchor, String asked, List<String> tables, List<StoredChunk> rows, long total, int cap) {

    /** The patient header the ingest writes on every row of a patient ({@code patient: Name (MRN-…)}). */

    /** One patient and their listed rows. */
    public record PatientRows(String patientKey, String label, List<StoredChunk> rows) {
    }

    public Cohort {
        Objects.requireNonNull(anchor, "anchor");
        tables = List.copyOf(tables);
        rows = List.copyOf(rows);
        if (total < rows.size() || cap < 1) {
            throw new IllegalArgumentException("total must be >= rows and cap >= 1");
        }
    }

    public boolean capped() {
        return total > rows.size();
    }

    /** The listed rows by patient, patients in label order, each patient's rows in row id order; rows without a patient last. */
    public List<PatientRows> byPatient() {
        Map<String, List<StoredChunk>> grouped = new LinkedHashMap<>();
        Map<String, String> labels = new LinkedHashMap<>();
        for (StoredChunk row : rows) {
            String key = row.patientKey() == null ? "" : row.patientKey();
            grouped.computeIfAbsent(key, k -> new ArrayList<>()).add(row);
            labels.putIfAbsent(key, label(row));
        }
        List<PatientRows> out = new ArrayList<>();
        grouped.forEach((key, patientRows) -> out.add(new PatientRows(key.isEmpty() ? null : key, labels.get(key), patientRows)));
        out.sort(Comparator.comparing((PatientRows p) -> p.patientKey() == null).thenComparing(PatientRows::label)
                .thenComparing(p -> p.patientKey() == null ? "" : p.patientKey()));
        return out;
    }

    /** Distinct patients among the listed rows. */
    public int patients() {
        return (int) rows.stream().map(StoredChunk::patientKey).filter(Objects::nonNull).distinct().count();
    }

    public Completeness completeness() {
        Completeness.CohortSummary summary = new Completeness.CohortSummary(anchor, patients(), rows.size(), cap);
        return capped()
                ? new Completeness(Completeness.Kind.PARTIAL, "cut at the cap: " + rows.size() + " of " + total
                        + " records holding the term are listed (query.cohort-cap)", summary)
                : new Completeness(Completeness.Kind.COMPLETE, "every record holding the term is listed", summary);
    }

    /** The patient as the ingest labelled the row's chunks (name and number), never read back from the text. */
    private static String label(StoredChunk row) {
        String labelled = row.patient() == null ? null : row.patient().display();
        if (labelled != null) {
            return labelled;
        }
        return row.patientKey() == null ? "records without a patient" : "patient " + row.patientKey();
    }
}

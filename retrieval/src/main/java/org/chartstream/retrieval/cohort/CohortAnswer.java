package org.chartstream.retrieval.cohort;

import java.util.ArrayList;
import java.util.List;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.retrieval.generate.Passage;

/**
 * A cohort's answer: its text (complete or partial and why, the count, one line per patient with the citation number
 * of each of their rows) and the passages it cites, one per row, numbered in the order the text lists them.
 */
public record CohortAnswer(String text, List<Passage> passages) {

    public static CohortAnswer of(Cohort cohort, int maxPassageChars) {
        List<Cohort.PatientRows> patients = cohort.byPatient();
        List<Passage> passages = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        if (cohort.asked() != null) {
            text.append("No record mentions \"").append(cohort.asked()).append("\"; listing the records that mention \"")
                    .append(cohort.anchor()).append("\" instead (did you mean \"").append(cohort.anchor()).append("\"?).\n");
        }
        int patientCount = cohort.patients();
        String where = cohort.tables().isEmpty() ? "" : " in " + String.join(", ", cohort.tables());
        if (cohort.capped()) {
            text.append(String.format("Partial list: %d of %d records%s hold \"%s\"; only the first %d are listed "
                    + "(query.cohort-cap), from %d %s.%n", cohort.rows().size(), cohort.total(), where, cohort.anchor(),
                    cohort.cap(), patientCount, patientCount == 1 ? "patient" : "patients"));
        } else {
            text.append(String.format("Complete list: %d %s with %d %s%s holding \"%s\" (every such record is listed).%n",
                    patientCount, patientCount == 1 ? "patient" : "patients", cohort.rows().size(),
                    cohort.rows().size() == 1 ? "record" : "records", where, cohort.anchor()));
        }
        for (Cohort.PatientRows patient : patients) {
            text.append("- ").append(patient.label()).append(':');
            for (StoredChunk row : patient.rows()) {
                int index = passages.size() + 1;
                passages.add(new Passage(index, row, 1.0, quote(row.text(), maxPassageChars)));
                text.append(" [").append(index).append(']');
            }
            text.append('\n');
        }
        return new CohortAnswer(text.toString().stripTrailing(), passages);
    }

    private static String quote(String text, int maxChars) {
        return text.length() <= maxChars ? text : text.substring(0, maxChars).stripTrailing() + " …";
    }
}

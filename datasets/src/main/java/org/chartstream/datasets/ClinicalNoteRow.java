package org.chartstream.datasets;

import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * A row of {@code clinical_notes}: one aci-bench encounter note ({@code noteNo} is its encounter id, e.g.
 * {@code D2N001}). {@code encounterId} is null: the aci-bench visit has no Synthea encounter.
 */
public record ClinicalNoteRow(long noteId, String noteNo, UUID patientId, UUID encounterId, LocalDate noteDate,
                              String chiefComplaint, String secondaryComplaints, String noteText)
        implements ClinicalRow {

    @Override
    public String table() {
        return ClinicalSchema.CLINICAL_NOTES;
    }

    @Override
    public Object primaryKey() {
        return noteId;
    }

    @Override
    public List<Object> valueList() {
        return Arrays.asList(noteId, noteNo, patientId, encounterId, noteDate, chiefComplaint, secondaryComplaints,
                noteText);
    }

    static ClinicalNoteRow of(Object[] v) {
        return new ClinicalNoteRow((Long) v[0], (String) v[1], (UUID) v[2], (UUID) v[3], (LocalDate) v[4],
                (String) v[5], (String) v[6], (String) v[7]);
    }
}

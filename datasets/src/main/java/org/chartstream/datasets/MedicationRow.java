package org.chartstream.datasets;

import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * A row of {@code medications} (from Synthea; {@code description} is the RxNorm name). {@code stopDate} null means
 * still taken; {@code encounterId} is null when the prescribing encounter is older than the encounters kept.
 */
public record MedicationRow(long medicationId, UUID patientId, UUID encounterId, LocalDate startDate,
                            LocalDate stopDate, String rxnormCode, String description, String reasonCode,
                            String reasonDescription) implements ClinicalRow {

    @Override
    public String table() {
        return ClinicalSchema.MEDICATIONS;
    }

    @Override
    public Object primaryKey() {
        return medicationId;
    }

    public boolean active() {
        return stopDate == null;
    }

    @Override
    public List<Object> valueList() {
        return Arrays.asList(medicationId, patientId, encounterId, startDate, stopDate, rxnormCode, description,
                reasonCode, reasonDescription);
    }

    static MedicationRow of(Object[] v) {
        return new MedicationRow((Long) v[0], (UUID) v[1], (UUID) v[2], (LocalDate) v[3], (LocalDate) v[4],
                (String) v[5], (String) v[6], (String) v[7], (String) v[8]);
    }
}

package org.chartstream.datasets;

import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * A row of {@code conditions} (from Synthea). {@code resolvedDate} null means still active; {@code encounterId} is
 * null when the diagnosing encounter is older than the encounters kept; {@code icd10Code} is null when the SNOMED
 * code is not in the curated map.
 */
public record ConditionRow(long conditionId, UUID patientId, UUID encounterId, LocalDate onsetDate,
                           LocalDate resolvedDate, String snomedCode, String icd10Code, String description)
        implements ClinicalRow {

    @Override
    public String table() {
        return ClinicalSchema.CONDITIONS;
    }

    @Override
    public Object primaryKey() {
        return conditionId;
    }

    public boolean active() {
        return resolvedDate == null;
    }

    @Override
    public List<Object> valueList() {
        return Arrays.asList(conditionId, patientId, encounterId, onsetDate, resolvedDate, snomedCode, icd10Code,
                description);
    }

    static ConditionRow of(Object[] v) {
        return new ConditionRow((Long) v[0], (UUID) v[1], (UUID) v[2], (LocalDate) v[3], (LocalDate) v[4],
                (String) v[5], (String) v[6], (String) v[7]);
    }
}

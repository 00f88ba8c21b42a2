package org.chartstream.datasets;

import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/** A row of {@code encounters} (from Synthea). Times are UTC. */
public record EncounterRow(UUID encounterId, String encounterNo, UUID patientId, OffsetDateTime startTime,
                           OffsetDateTime stopTime, String encounterClass, String snomedCode, String description,
                           String reasonCode, String reasonDescription) implements ClinicalRow {

    @Override
    public String table() {
        return ClinicalSchema.ENCOUNTERS;
    }

    @Override
    public Object primaryKey() {
        return encounterId;
    }

    @Override
    public List<Object> valueList() {
        return Arrays.asList(encounterId, encounterNo, patientId, startTime, stopTime, encounterClass, snomedCode,
                description, reasonCode, reasonDescription);
    }

    static EncounterRow of(Object[] v) {
        return new EncounterRow((UUID) v[0], (String) v[1], (UUID) v[2], (OffsetDateTime) v[3],
                (OffsetDateTime) v[4], (String) v[5], (String) v[6], (String) v[7], (String) v[8], (String) v[9]);
    }
}

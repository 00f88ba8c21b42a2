package org.chartstream.datasets;

import java.time.LocalDate;
import java.time.Period;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/** A row of {@code patients}. {@code gender} is {@code female} or {@code male}. */
public record PatientRow(UUID patientId, String patientNo, String firstName, String lastName, LocalDate birthDate,
                         String gender, String city, String state) implements ClinicalRow {

    @Override
    public String table() {
        return ClinicalSchema.PATIENTS;
    }

    @Override
    public Object primaryKey() {
        return patientId;
    }

    /** "First Last". */
    public String fullName() {
        return firstName + " " + lastName;
    }

    /** Age in whole years on {@code date}. */
    public int ageOn(LocalDate date) {
        return Period.between(birthDate, date).getYears();
    }

    @Override
    public List<Object> valueList() {
        return Arrays.asList(patientId, patientNo, firstName, lastName, birthDate, gender, city, state);
    }

    static PatientRow of(Object[] v) {
        return new PatientRow((UUID) v[0], (String) v[1], (String) v[2], (String) v[3], (LocalDate) v[4],
                (String) v[5], (String) v[6], (String) v[7]);
    }
}

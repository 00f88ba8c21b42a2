package org.chartstream.ingest.project;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/** Where a source keeps patient identity: the table, its id column, the name columns and the patient number. */
public record PatientIdentityColumns(String table, String idColumn, List<String> nameColumns, String numberColumn) {
    public PatientIdentityColumns {
        nameColumns = List.copyOf(nameColumns);
    }

    public PatientIdentity identityOf(Map<String, String> patientRow) {
        String name = nameColumns.stream().map(patientRow::get).filter(Objects::nonNull)
                .map(String::trim).filter(s -> !s.isEmpty()).collect(Collectors.joining(" "));
        return new PatientIdentity(patientRow.get(idColumn), name.isEmpty() ? null : name, patientRow.get(numberColumn));
    }
}

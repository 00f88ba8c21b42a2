package org.chartstream.ingest.chunk;

import java.util.List;

/**
 * One version of a row as the texts it is indexed with: each chunk repeats the row's header (record type, patient)
 * before its share of the row's fields.
 *
 * @param pieces     the chunk texts, in order
 * @param patientKey the key the one-patient filter matches ({@code PatientIdentity.filterKey()}), null without a patient
 * @param position   the source position of the change this version comes from
 */
public record RowChunks(String sourceId, String table, String rowKey, List<String> pieces, String patientKey,
                        String position, long commitTsMs) {
    public RowChunks {
        pieces = List.copyOf(pieces);
    }

    public int count() {
        return pieces.size();
    }
}

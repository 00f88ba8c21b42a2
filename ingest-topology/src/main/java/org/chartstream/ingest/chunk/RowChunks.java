package org.chartstream.ingest.chunk;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.chartstream.core.store.PatientLabel;

/**
 * One version of a row as the texts it is indexed with: each chunk repeats the row's header (record type, patient)
 * before its share of the row's fields.
 *
 * @param pieces     the chunk texts, in order
 * @param patientKey the key the one-patient filter matches ({@code PatientIdentity.filterKey()}), null without a patient
 * @param patient    the patient's number, name and birth year ({@code RowProjector.label}), null without them
 * @param position   the source position of the change this version comes from
 * @param fields     the row's shown fields, column to display value ({@code RowProjector.shownFields}): what its first
 *                   chunk carries for exact row sets
 * @param embedText  what the embedding model reads for every chunk of the row ({@link EmbedText}), or null: each
 *                   chunk's own text
 */
public record RowChunks(String sourceId, String table, String rowKey, List<String> pieces, String patientKey,
                        PatientLabel patient, String position, long commitTsMs, Map<String, String> fields,
                        String embedText) {
    public RowChunks {
        pieces = List.copyOf(pieces);
        fields = fields == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    }

    /** A row's chunks, each embedded from its own text. */
    public RowChunks(String sourceId, String table, String rowKey, List<String> pieces, String patientKey,
                     PatientLabel patient, String position, long commitTsMs, Map<String, String> fields) {
        this(sourceId, table, rowKey, pieces, patientKey, patient, position, commitTsMs, fields, null);
    }

    /** A row's chunks without fields. */
    public RowChunks(String sourceId, String table, String rowKey, List<String> pieces, String patientKey,
                     PatientLabel patient, String position, long commitTsMs) {
        this(sourceId, table, rowKey, pieces, patientKey, patient, position, commitTsMs, Map.of(), null);
    }

    /** A row's chunks without a patient label. */
    public RowChunks(String sourceId, String table, String rowKey, List<String> pieces, String patientKey, String position,
                     long commitTsMs) {
        this(sourceId, table, rowKey, pieces, patientKey, null, position, commitTsMs, Map.of(), null);
    }

    public int count() {
        return pieces.size();
    }
}

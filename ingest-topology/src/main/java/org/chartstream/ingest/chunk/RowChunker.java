package org.chartstream.ingest.chunk;

import java.util.Map;
import org.chartstream.core.model.TextChunker;
import org.chartstream.ingest.project.PatientIdentities;
import org.chartstream.ingest.project.PatientIdentity;
import org.chartstream.ingest.project.RowImage;
import org.chartstream.ingest.project.RowProjector;
import org.chartstream.ingest.project.TableProjection;

/**
 * Turns a projected row into its chunk texts: the header naming the record type and the patient, and the row's
 * fields split by the {@link TextChunker} (windows counted with the embedding model's tokenizer); the fields the text
 * shows travel with the chunks as well, for exact row sets, and so does what the embedding model reads when the
 * table's embedding policy names fields ({@link EmbedText}).
 */
public final class RowChunker {
    private final TextChunker chunker;
    private final PatientIdentities patients;

    public RowChunker(TextChunker chunker, PatientIdentities patients) {
        this.chunker = chunker;
        this.patients = patients;
    }

    /** A kept row image's chunks, its text projected afresh. */
    public RowChunks chunk(String sourceId, String table, String rowKey, TableProjection projection, RowImage image) {
        return chunk(sourceId, table, rowKey, projection, image, RowProjector.body(projection, image.row()));
    }

    /** @param body the image's {@link RowProjector#body}, when the caller already has it */
    public RowChunks chunk(String sourceId, String table, String rowKey, TableProjection projection, RowImage image,
                           String body) {
        PatientIdentity patient = patients.of(sourceId, image.row(), projection);
        Map<String, String> shown = RowProjector.shownFields(projection, image.row());
        return new RowChunks(sourceId, table, rowKey, chunker.chunk(RowProjector.header(projection, patient), body),
                patient == null ? null : patient.filterKey(), RowProjector.label(projection, image.row(), patient),
                image.position(), image.commitTsMs(), shown, EmbedText.of(projection.binding(), shown));
    }
}

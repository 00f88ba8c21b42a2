package org.chartstream.ingest.publish;

import java.util.Map;
import java.util.function.Consumer;
import org.chartstream.core.store.TableRef;
import org.chartstream.ingest.chunk.RowChunker;
import org.chartstream.ingest.chunk.RowChunks;
import org.chartstream.ingest.lookup.RowReferences;
import org.chartstream.ingest.project.RowImage;
import org.chartstream.ingest.project.TableProjection;
import org.chartstream.ingest.state.RowId;
import org.chartstream.schemas.IndexEvent;

/**
 * Chunks kept rows, each rendered with the meanings of its codes ({@link RowReferences}), and hands their index
 * events, and a generation's marker, to the embedding tasks.
 */
public final class RowEvents {
    private final RowChunker chunker;
    private final RowReferences references;
    private final IndexEvents events;
    private final Consumer<IndexEvent> emit;

    public RowEvents(RowChunker chunker, RowReferences references, IndexEvents events, Consumer<IndexEvent> emit) {
        this.chunker = chunker;
        this.references = references;
        this.events = events;
        this.emit = emit;
    }

    /** A kept row image's chunks, its text projected afresh with its codes' meanings as they are now. */
    public RowChunks chunk(RowId row, TableProjection projection, RowImage image) {
        return chunkRendered(row, projection, image, references.render(row.sourceId(), projection, image.row()).row());
    }

    /** @param rendered the image's row as {@link RowReferences#render} rendered it, when the caller already has it */
    public RowChunks chunkRendered(RowId row, TableProjection projection, RowImage image, Map<String, String> rendered) {
        RowImage shown = rendered == image.row() ? image : new RowImage(image.chunks(), image.generation(), image.position(),
                image.commitTsMs(), rendered, image.unresolved(), image.viaPatient());
        return chunker.chunk(row.sourceId(), row.table(), row.rowKey(), projection, shown);
    }

    public void upsert(RowChunks chunks, long generation) {
        emit.accept(events.upsert(chunks, generation));
    }

    /** The row leaves every generation. */
    public void delete(RowId row) {
        emit.accept(IndexEvents.deleteRow(row.sourceId(), row.table(), row.rowKey()));
    }

    /** The marker that publishes {@code generation} of {@code table} with {@code rows} rows. */
    public void published(TableRef table, long generation, long rows, long tsMs) {
        emit.accept(events.published(table.sourceId(), table.table(), generation, rows, tsMs));
    }
}

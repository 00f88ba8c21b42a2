package org.chartstream.ingest.publish;

import java.util.function.Consumer;
import org.chartstream.core.store.TableRef;
import org.chartstream.ingest.chunk.RowChunker;
import org.chartstream.ingest.chunk.RowChunks;
import org.chartstream.ingest.project.RowImage;
import org.chartstream.ingest.project.TableProjection;
import org.chartstream.ingest.state.RowId;
import org.chartstream.schemas.IndexEvent;

/** Chunks kept rows and hands their index events, and a generation's marker, to the embedding tasks. */
public final class RowEvents {
    private final RowChunker chunker;
    private final IndexEvents events;
    private final Consumer<IndexEvent> emit;

    public RowEvents(RowChunker chunker, IndexEvents events, Consumer<IndexEvent> emit) {
        this.chunker = chunker;
        this.events = events;
        this.emit = emit;
    }

    /** A kept row image's chunks, its text projected afresh. */
    public RowChunks chunk(RowId row, TableProjection projection, RowImage image) {
        return chunker.chunk(row.sourceId(), row.table(), row.rowKey(), projection, image);
    }

    /** @param body the image's projected text, when the caller already has it */
    public RowChunks chunk(RowId row, TableProjection projection, RowImage image, String body) {
        return chunker.chunk(row.sourceId(), row.table(), row.rowKey(), projection, image, body);
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

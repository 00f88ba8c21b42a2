package org.chartstream.schemas;

import java.util.Collection;

/** What the embedding tasks' progress records say of one table: the sum over the partitions that embedded its rows. */
public final class EmbeddedChunks {
    private EmbeddedChunks() {
    }

    /**
     * Chunks of {@code generation} of the table {@code tableKey} ({@code source:table}) embedded so far, summed over the
     * partitions' latest {@link EmbeddingProgress} records; a partition whose newest generation of the table is another
     * one adds nothing.
     */
    public static long of(Collection<EmbeddingProgress> progress, String tableKey, long generation) {
        return progress.stream().map(p -> p.getTables().get(tableKey))
                .filter(t -> t != null && t.getGeneration() == generation).mapToLong(TableEmbedding::getChunks).sum();
    }
}

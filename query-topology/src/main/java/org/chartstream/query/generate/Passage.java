package org.chartstream.query.generate;

import org.chartstream.store.StoredChunk;

/** A numbered, citable passage: the only thing an answer may cite. */
public record Passage(int index, StoredChunk chunk, double score) {
}

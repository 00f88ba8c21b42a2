package org.chartstream.retrieval.generate;

import org.chartstream.core.store.StoredChunk;

/**
 * A numbered, citable passage: the only thing an answer may cite.
 *
 * @param chunk the chunk retrieval chose (the citation points at it)
 * @param text  what was quoted or given to the model: the chunk, expanded with its row's sibling chunks
 */
public record Passage(int index, StoredChunk chunk, double score, String text) {
}

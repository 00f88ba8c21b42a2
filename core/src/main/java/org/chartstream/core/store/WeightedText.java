package org.chartstream.core.store;

import java.util.Objects;

/**
 * One part of a weighted lexical query ({@link HybridStore#weightedLexicalSearch}): a text searched as
 * {@link HybridStore#lexicalSearch} searches it, its score multiplied by {@code weight}.
 *
 * @param text   free text (no query syntax; double-quoted parts are phrases)
 * @param weight a positive, finite multiplier of the text's BM25 score
 */
public record WeightedText(String text, double weight) {

  public WeightedText {
    Objects.requireNonNull(text, "text");
    if (!(weight > 0) || Double.isInfinite(weight)) {
      throw new IllegalArgumentException("a weighted text's weight must be positive and finite, was " + weight);
    }
  }
}

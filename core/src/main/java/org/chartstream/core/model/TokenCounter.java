package org.chartstream.core.model;

/**
 * Counts tokens the way a model does, special tokens excluded. Budgets are in model tokens, not characters, because
 * that is what fills a model's context window. The embedding model's tokenizer is one:
 * {@code TokenCounter counter = embedder.tokenizer()::countTokens;}; the generation model's own
 * {@code tokenizer.json} is another ({@code HuggingFaceTokenCounter}, models module).
 */
@FunctionalInterface
public interface TokenCounter {
    int count(String text);
}

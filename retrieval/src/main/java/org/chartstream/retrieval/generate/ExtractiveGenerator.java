package org.chartstream.retrieval.generate;

import java.util.List;
import java.util.function.Consumer;
import org.chartstream.retrieval.context.ContextPassage;

/**
 * The generator when no generation model is configured: the context passages quoted under
 * {@link ExtractiveAnswer#LABEL}, each cited by its number, so nobody mistakes them for a generated answer. Only for
 * "no endpoint configured"; a configured endpoint that fails gives {@link GenerationResult.Outcome#UNAVAILABLE}.
 */
public final class ExtractiveGenerator implements Generator {
    public static final String NAME = "extractive (no generation model configured)";

    private final int maxCharsPerPassage;

    public ExtractiveGenerator(int maxCharsPerPassage) {
        if (maxCharsPerPassage < 1) {
            throw new IllegalArgumentException("maxCharsPerPassage must be positive, was " + maxCharsPerPassage);
        }
        this.maxCharsPerPassage = maxCharsPerPassage;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public GenerationResult generate(String question, List<ContextPassage> passages, Consumer<String> onToken) {
        if (passages.isEmpty()) {
            return new GenerationResult(GenerationResult.Outcome.REFUSED, GroundedPrompt.REFUSAL,
                    CitationMarkers.check("", 0), NAME, "no passages to quote", null, 0);
        }
        StringBuilder answer = new StringBuilder(ExtractiveAnswer.LABEL);
        for (ContextPassage p : passages) {
            String text = p.text().replaceAll("\\s+", " ").strip();
            if (text.length() > maxCharsPerPassage) {
                text = text.substring(0, maxCharsPerPassage).stripTrailing() + " …";
            }
            answer.append("\n[").append(p.index()).append("] ").append(text);
        }
        String text = answer.toString();
        return new GenerationResult(GenerationResult.Outcome.EXTRACTIVE, text, CitationMarkers.check(text, passages.size()),
                NAME, "no generation model configured: " + passages.size() + " passages quoted", null, 0);
    }
}

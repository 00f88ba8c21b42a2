package org.chartstream.query.generate;

import java.util.List;

/**
 * The answer when no generation model is configured: the cited passages themselves, labelled as extractive so
 * nobody mistakes them for a generated answer.
 */
public final class ExtractiveAnswer {
    public static final String LABEL = "Extractive answer (no generation model configured): the most relevant records, quoted.";

    private ExtractiveAnswer() {
    }

    public static String compose(List<Passage> passages, int maxCharsPerPassage) {
        StringBuilder out = new StringBuilder(LABEL);
        for (Passage p : passages) {
            String text = p.chunk().text().replace('\n', ' ').replaceAll("\\s+", " ").strip();
            if (text.length() > maxCharsPerPassage) {
                text = text.substring(0, maxCharsPerPassage).stripTrailing() + " …";
            }
            out.append("\n[").append(p.index()).append("] ").append(text);
        }
        return out.toString();
    }
}

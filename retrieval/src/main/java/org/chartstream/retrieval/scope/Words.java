package org.chartstream.retrieval.scope;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A text's words as names and patient numbers are compared: letters, digits and inner hyphens ({@code MRN-000001},
 * {@code Pemberton-Lowe}), folded to lower case without accents ({@code Róss} = {@code ross}).
 */
public final class Words {
    private static final Pattern SEPARATOR = Pattern.compile("[^\\p{L}\\p{M}\\p{N}-]+");
    private static final Pattern MARKS = Pattern.compile("\\p{M}+");

    /**
     * One word.
     *
     * @param folded      lower case, accents removed
     * @param capitalised whether it was written with a capital first letter
     */
    public record Word(String folded, boolean capitalised) {
    }

    private Words() {
    }

    /** The text's words in order. */
    public static List<Word> of(String text) {
        List<Word> words = new ArrayList<>();
        for (String raw : SEPARATOR.split(text)) {
            String word = raw.replaceAll("^-+|-+$", "");
            if (!word.isEmpty()) {
                words.add(new Word(fold(word), Character.isUpperCase(word.codePointAt(0))));
            }
        }
        return words;
    }

    /** The text's words in order, folded ({@link #fold}). */
    public static List<String> folded(String text) {
        return of(text).stream().map(Word::folded).toList();
    }

    /** Lower case, accents removed. */
    public static String fold(String text) {
        return MARKS.matcher(Normalizer.normalize(text, Normalizer.Form.NFD)).replaceAll("").toLowerCase(Locale.ROOT);
    }
}

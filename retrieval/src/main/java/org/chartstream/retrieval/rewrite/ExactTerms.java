package org.chartstream.retrieval.rewrite;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Exact terms for the lexical side: ICD-like codes ({@code \b[A-Z]\d{2}(?:\.\d+)?\b}) and all-caps terms of four or
 * more letters ({@code \b[A-Z]{4,}\b}, e.g. {@code COPD}, {@code CABG}) are added to the lexical query as quoted
 * phrases, so BM25 matches them as written (a code like {@code E11.9} is otherwise split at the dot by the analyser)
 * and weighs them twice.
 */
public final class ExactTerms {
    static final Pattern ICD_LIKE = Pattern.compile("\\b[A-Z]\\d{2}(?:\\.\\d+)?\\b");
    static final Pattern ALL_CAPS = Pattern.compile("\\b[A-Z]{4,}\\b");

    private ExactTerms() {
    }

    /** The exact terms of {@code query} not already inside one of its quoted phrases, in order, each once. */
    public static List<String> phrases(String query) {
        String outsideQuotes = ExpansionRules.QUOTED_PHRASE.matcher(query).replaceAll(" ");
        Set<String> terms = new LinkedHashSet<>();
        List<int[]> found = new ArrayList<>();
        collect(ICD_LIKE.matcher(outsideQuotes), found);
        collect(ALL_CAPS.matcher(outsideQuotes), found);
        found.sort((a, b) -> Integer.compare(a[0], b[0]));
        for (int[] span : found) {
            terms.add(outsideQuotes.substring(span[0], span[1]));
        }
        return List.copyOf(terms);
    }

    /** {@code query} followed by its {@linkplain #phrases exact terms} in double quotes; unchanged when it has none. */
    public static String lexicalQuery(String query) {
        List<String> phrases = phrases(query);
        if (phrases.isEmpty()) {
            return query;
        }
        StringBuilder out = new StringBuilder(query);
        for (String phrase : phrases) {
            out.append(" \"").append(phrase).append('"');
        }
        return out.toString();
    }

    private static void collect(Matcher m, List<int[]> found) {
        while (m.find()) {
            found.add(new int[] {m.start(), m.end()});
        }
    }
}

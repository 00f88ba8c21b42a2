package org.chartstream.retrieval.search;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.chartstream.core.store.TermIndex;

/**
 * Session 20 experiment (off unless -Dchartstream.spelling=true): each word of four or more letters, not all capitals,
 * that no indexed row holds gets its nearest indexed word appended to the lexical query (edits as CohortStage.maxEdits:
 * 1 up to five letters, else 2).
 */
public record LexicalSpelling(TermIndex terms) {
    static final Pattern WORD = Pattern.compile("\\b\\p{L}[\\p{L}']{3,}\\b");

    public String corrected(String query) {
        if (terms == null) {
            return query;
        }
        Set<String> added = new LinkedHashSet<>();
        Matcher m = WORD.matcher(query);
        while (m.find()) {
            String w = m.group();
            if (w.equals(w.toUpperCase(Locale.ROOT)) || terms.holds(w)) {
                continue;
            }
            List<String> similar = terms.similarWords(w, w.length() <= 5 ? 1 : 2, 1);
            if (!similar.isEmpty()) {
                added.add(similar.get(0));
            }
        }
        return added.isEmpty() ? query : query + " " + String.join(" ", added);
    }
}

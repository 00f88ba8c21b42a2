package org.chartstream.retrieval.rewrite;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * When a question is searched as it is instead of being expanded into paraphrases: paraphrases help a vague question
 * and hurt an exact one. Expansion is skipped for
 * <ul>
 *   <li>three words or fewer (nothing to paraphrase; a paraphrase would drift),</li>
 *   <li>a quoted phrase ({@code "..."} or {@code “...”}: the user asked for those words),</li>
 *   <li>an identifier-like token, whose exact form is the point of the question:
 *     <ul>
 *       <li>ICD-10-like codes: a capital letter and two digits, optionally a dot and up to four letters or digits
 *           ({@code I10}, {@code E11.9}, {@code S72.001A});</li>
 *       <li>record numbers: two or more capitals, optionally {@code -} or {@code _}, then digits ({@code MRN-000001},
 *           {@code MRN000001}, {@code PT_0042});</li>
 *       <li>numbers of four or more digits (RxNorm and SNOMED codes, record keys, years);</li>
 *       <li>LOINC-like codes: digits, a dash, one check digit ({@code 4548-4}).</li>
 *     </ul>
 *   </li>
 * </ul>
 */
public final class ExpansionRules {
    public static final int MAX_WORDS_WITHOUT_EXPANSION = 3;

    static final Pattern QUOTED_PHRASE = Pattern.compile("\"[^\"]+\"|“[^”]+”");
    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]");
    private static final List<Pattern> IDENTIFIER_LIKE = List.of(
            Pattern.compile("\\b[A-Z]\\d{2}(?:\\.[0-9A-Z]{1,4})?\\b"),
            Pattern.compile("\\b[A-Z]{2,}[-_]?\\d+\\b"),
            Pattern.compile("\\b\\d{4,}\\b"),
            Pattern.compile("\\b\\d{1,5}-\\d\\b"));

    private ExpansionRules() {
    }

    /** Why {@code query} is not expanded, or empty when it may be. */
    public static Optional<String> skipReason(String query) {
        if (wordCount(query) <= MAX_WORDS_WITHOUT_EXPANSION) {
            return Optional.of("≤" + MAX_WORDS_WITHOUT_EXPANSION + " words");
        }
        if (QUOTED_PHRASE.matcher(query).find()) {
            return Optional.of("quoted phrase");
        }
        if (hasIdentifierLikeToken(query)) {
            return Optional.of("identifier-like token");
        }
        return Optional.empty();
    }

    public static boolean hasIdentifierLikeToken(String query) {
        for (Pattern p : IDENTIFIER_LIKE) {
            if (p.matcher(query).find()) {
                return true;
            }
        }
        return false;
    }

    /**
     * The identifier-like tokens and quoted phrases of {@code query}, each once and none inside another (the digits
     * of {@code MRN-000001} are not listed again): what a rewrite must keep verbatim.
     */
    static List<String> exactParts(String query) {
        Set<String> found = new LinkedHashSet<>();
        var quoted = QUOTED_PHRASE.matcher(query);
        while (quoted.find()) {
            found.add(quoted.group());
        }
        for (Pattern p : IDENTIFIER_LIKE) {
            var m = p.matcher(query);
            while (m.find()) {
                found.add(m.group());
            }
        }
        List<String> parts = new ArrayList<>();
        for (String part : found) {
            if (found.stream().noneMatch(other -> other.length() > part.length() && other.contains(part))) {
                parts.add(part);
            }
        }
        return parts;
    }

    static int wordCount(String query) {
        int words = 0;
        for (String token : query.strip().split("\\s+")) {
            if (WORD.matcher(token).find()) {
                words++;
            }
        }
        return words;
    }
}

package org.chartstream.retrieval.gate;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The parts of a question that name one particular thing: codes (ICD-10-like {@code E11.319}, SNOMED CT and RxNorm
 * ids of five or more digits) and full names (two or more capitalised words, {@code Martha Collins},
 * {@code Clementine Pemberton-Lowe}). If a question names such a thing and no retrieved record mentions it, the
 * records are about something else, however close the rest of the question is: "What medications is Thaddeus
 * Fairweather taking?" retrieves other patients' medications at a high similarity.
 *
 * <p>A record mentions a code when it holds it as a whole token (case-insensitive), and a name when it holds each of
 * its words as a whole word, in any order or punctuation ({@code Salem Massachusetts} is mentioned by
 * {@code city: Salem, state: Massachusetts}). The question's first word is capitalised by grammar, so it never
 * starts a name. Drug names and other lower-case terms are not anchors: their shape does not set them apart from
 * ordinary words.
 */
public final class QuestionAnchors {
    private static final Pattern CODE = Pattern.compile("(?<![\\w.])(?:[A-Z]\\d{2}(?:\\.\\d+)?|\\d{5,})(?![\\w])");
    private static final String CAPITALISED = "\\p{Lu}\\p{Ll}+(?:-\\p{Lu}\\p{Ll}+)*";
    private static final Pattern FULL_NAME = Pattern.compile("(?<![\\w-])" + CAPITALISED + "(?:\\s+" + CAPITALISED + ")+(?![\\w-])");
    private static final Pattern FIRST_WORD = Pattern.compile("^\\W*\\S+\\s+");
    // the passage side runs on every retrieved passage of every question: patterns compiled once
    private static final Pattern TOKEN_SEPARATOR = Pattern.compile("[^\\p{L}\\p{N}.]+");
    private static final Pattern EDGE_DOTS = Pattern.compile("^\\.+|\\.+$");
    private static final Pattern LOWER_CASE_CODE = Pattern.compile("[a-z]\\d{2}\\.\\d+");
    private static final Pattern DOTS = Pattern.compile("\\.+");

    /** A code or a name, and the tokens a record must hold to mention it. */
    public record Anchor(String text, List<String> tokens) {
    }

    private QuestionAnchors() {
    }

    /** The codes and full names {@code question} names, each once, in order. */
    public static List<Anchor> of(String question) {
        Set<String> seen = new LinkedHashSet<>();
        List<Anchor> anchors = new ArrayList<>();
        Matcher codes = CODE.matcher(question);
        while (codes.find()) {
            if (seen.add(codes.group())) {
                anchors.add(new Anchor(codes.group(), List.of(codes.group().toLowerCase(Locale.ROOT))));
            }
        }
        Matcher first = FIRST_WORD.matcher(question);
        int nameFrom = first.find() ? first.end() : 0;
        Matcher names = FULL_NAME.matcher(question);
        while (names.find(nameFrom)) {
            if (seen.add(names.group())) {
                anchors.add(new Anchor(names.group(), List.of(names.group().toLowerCase(Locale.ROOT).split("[\\s-]+"))));
            }
            nameFrom = names.end();
        }
        return anchors;
    }

    /** The anchors that none of {@code texts} mentions. */
    public static List<Anchor> unmentioned(List<Anchor> anchors, List<String> texts) {
        if (anchors.isEmpty()) {
            return List.of();
        }
        List<Set<String>> tokenSets = texts.stream().map(QuestionAnchors::tokens).toList();
        return anchors.stream().filter(a -> tokenSets.stream().noneMatch(t -> t.containsAll(a.tokens()))).toList();
    }

    private static Set<String> tokens(String text) {
        Set<String> tokens = new java.util.HashSet<>();
        // codes keep their dot (E11.319); a sentence-final dot is not part of a token
        for (String token : TOKEN_SEPARATOR.split(text.toLowerCase(Locale.ROOT))) {
            String trimmed = token.indexOf('.') < 0 ? token : EDGE_DOTS.matcher(token).replaceAll("");
            if (!trimmed.isEmpty()) {
                tokens.add(trimmed);
                if (trimmed.indexOf('.') >= 0 && !LOWER_CASE_CODE.matcher(trimmed).matches()) {
                    tokens.addAll(List.of(DOTS.split(trimmed))); // "Collins.Martha" or "a.m." are words, not codes
                }
            }
        }
        return tokens;
    }
}

package org.chartstream.retrieval.generate;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code [n]} citation markers of a generated answer, checked against the passages it was given: which point at
 * a passage and which at none. {@code [2]}, {@code [1, 3]}, {@code [1; 3]}, {@code [2-4]} and {@code [1][3]} cite
 * passages by number; only 1 to the number of passages exist. Brackets holding anything else ({@code [sic]}) are not
 * citations.
 */
public final class CitationMarkers {
    private static final Pattern BRACKET = Pattern.compile("\\[\\s*(\\d+(?:\\s*[-–]\\s*\\d+)?(?:\\s*[,;]\\s*\\d+(?:\\s*[-–]\\s*\\d+)?)*)\\s*]");
    private static final Pattern ITEM = Pattern.compile("(\\d+)(?:\\s*[-–]\\s*(\\d+))?");
    /** A range wider than this is not expanded number by number; its ends are checked. */
    private static final int MAX_RANGE = 50;

    /**
     * @param cited      valid passage numbers, each once, in order of first citation
     * @param outOfRange cited numbers with no such passage, each once, in order of first citation
     */
    public record Report(List<Integer> cited, List<Integer> outOfRange) {
        public Report {
            cited = List.copyOf(cited);
            outOfRange = List.copyOf(outOfRange);
        }

        /** True when the answer cites a passage that does not exist. */
        public boolean flagged() {
            return !outOfRange.isEmpty();
        }

        /** True when the answer cites nothing at all. */
        public boolean uncited() {
            return cited.isEmpty() && outOfRange.isEmpty();
        }
    }

    private CitationMarkers() {
    }

    public static Report check(String answer, int passages) {
        Set<Integer> cited = new LinkedHashSet<>();
        Set<Integer> outOfRange = new LinkedHashSet<>();
        Matcher bracket = BRACKET.matcher(answer);
        while (bracket.find()) {
            Matcher item = ITEM.matcher(bracket.group(1));
            while (item.find()) {
                for (int n : numbers(item)) {
                    (n >= 1 && n <= passages ? cited : outOfRange).add(n);
                }
            }
        }
        return new Report(new ArrayList<>(cited), new ArrayList<>(outOfRange));
    }

    private static List<Integer> numbers(Matcher item) {
        int from = parse(item.group(1));
        if (item.group(2) == null) {
            return List.of(from);
        }
        int to = parse(item.group(2));
        if (to < from || to - from > MAX_RANGE) {
            return List.of(from, to);
        }
        List<Integer> all = new ArrayList<>();
        for (int n = from; n <= to; n++) {
            all.add(n);
        }
        return all;
    }

    private static int parse(String digits) {
        // a number too long for an int is certainly out of range
        return digits.length() > 9 ? Integer.MAX_VALUE : Integer.parseInt(digits);
    }
}

package org.chartstream.app.privacy;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import org.chartstream.datasets.ClinicalDataset;
import org.chartstream.datasets.PatientRow;

/**
 * What must never appear in a log: the questions asked and the patients' names, numbers and ids. Names match as
 * whole words, case-insensitively; questions, numbers and ids as they are.
 */
record SensitiveTerms(List<String> questions, List<String> patientTerms) {
    /** Names shorter than this are skipped: too many ordinary words would match. */
    private static final int MIN_NAME_LENGTH = 4;

    static SensitiveTerms of(ClinicalDataset data, List<String> questions) {
        Set<String> terms = new LinkedHashSet<>();
        for (PatientRow p : data.patients()) {
            terms.add(p.fullName());
            terms.add(p.patientNo());
            terms.add(p.patientId().toString());
            for (String name : List.of(p.firstName(), p.lastName())) {
                if (name != null && name.length() >= MIN_NAME_LENGTH) {
                    terms.add(name);
                }
            }
        }
        return new SensitiveTerms(List.copyOf(questions), List.copyOf(terms));
    }

    /** Each line of {@code text} that holds a sensitive term, with the term (first match only). */
    List<String> findIn(String text) {
        List<Pattern> patterns = new ArrayList<>();
        questions.forEach(q -> patterns.add(Pattern.compile(Pattern.quote(q))));
        patientTerms.forEach(t -> patterns.add(Pattern.compile("(?<![\\p{L}\\p{N}])" + Pattern.quote(t) + "(?![\\p{L}\\p{N}])",
                Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE)));
        List<String> found = new ArrayList<>();
        for (String line : text.split("\n")) {
            for (Pattern p : patterns) {
                if (p.matcher(line).find()) {
                    found.add(p.pattern().toLowerCase(Locale.ROOT) + " in: " + line);
                    break;
                }
            }
        }
        return found;
    }
}

package org.chartstream.retrieval.gate;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.chartstream.retrieval.scope.NumberMentions;
import org.chartstream.retrieval.scope.Words;

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
 * starts a name. A drug or condition word is an anchor by its place, not its shape: the one word a question takes,
 * is prescribed, is on, has, or is diagnosed with or treated for ("Which patients take lisinopril?", "Who is
 * diagnosed with gout?"), when nothing but words of frequency or time follow it; a word that starts a longer phrase
 * ("blood thinners", "a body weight far above the healthy range") is not, because the phrase is what is asked about.
 * A drug named by its substance and its salt ("lithium carbonate", "metoprolol succinate", "losartan potassium") is
 * one anchor of two words: the salt names the form of that one substance, it does not widen the question.
 * Accents and case are folded on both sides: "Elizabéth Róss" is mentioned by "Elizabeth Ross".
 *
 * <p>A patient's number names a person, like a full name, never a clinical code: a number the question writes where
 * a patient's number goes ({@code patient 10014078}, {@code #10014078}, {@code patient no. MRN-000123},
 * {@link NumberMentions}), and a word the scope resolved to a patient's number ({@code ScopeDecision#patientNumbers}:
 * "List every drug ordered for 10031404."), is a person anchor, which the patient's records mention in their header.
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
    /** A word as patient numbers are written ({@code 10014078}, {@code MRN-000123}), and what separates its tokens. */
    private static final Pattern NUMBER_WORD = Pattern.compile("[\\p{L}\\p{N}](?:[\\p{L}\\p{N}-]*[\\p{L}\\p{N}])?");
    private static final Pattern NUMBER_SEPARATOR = Pattern.compile("[^\\p{L}\\p{N}]+");

    /** A code or a name, and the tokens a record must hold to mention it. */
    public record Anchor(String text, List<String> tokens) {
    }

    /** What a word in an anchor position names, by the verb before it. */
    public enum TermKind { DRUG, CONDITION }

    /** A drug or condition word in an anchor position. */
    public record TermAnchor(Anchor anchor, TermKind kind) {
    }

    private static final String WORD = "(\\p{L}[\\p{L}\\p{N}-]*\\p{L})";
    private static final String ARTICLE = "(?:(?:an?|the)\\s+)?";
    private static final Pattern DRUG_POSITION = Pattern.compile("\\b(?:takes?|taking|took|prescribed|on|receiving|given)\\s+"
            + ARTICLE + "(?:(?:drug|medication|medicine)\\s+)?" + WORD, Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
    private static final Pattern CONDITION_POSITION = Pattern.compile("\\b(?:diagnosed\\s+with|treated\\s+for|suffer(?:s|ing)?\\s+from"
            + "|(?:patients?|anyone|anybody|people)\\s+with|have|has)\\s+" + ARTICLE + WORD,
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
    /**
     * The salts and esters of the USP/USAN drug names (the second word of "lithium carbonate"), as a closed list: a
     * word after a drug word names a drug of two words only when it is one of these.
     */
    private static final Pattern SALT = Pattern.compile("^\\s+(acetate|besylate|bicarbonate|bitartrate|bromide|calcium"
            + "|carbonate|chloride|citrate|dihydrate|dipropionate|fumarate|furoate|gluconate|hcl|hyclate|hydrobromide"
            + "|hydrochloride|iodide|lactate|magnesium|maleate|mesylate|monohydrate|nitrate|oxalate|phosphate|potassium"
            + "|propionate|sodium|succinate|sulfate|sulphate|tartrate|tosylate|valerate|xinafoate)\\b",
            Pattern.CASE_INSENSITIVE);
    /** What may follow an anchor word: the rest of the question says how often or when, not what. */
    private static final Pattern TAIL = Pattern.compile("(?:\\s+(?:twice|once|three|times|a|an|the|per|every|each|day|daily"
            + "|week|weekly|month|monthly|now|currently|still|today|regularly|at|moment|these|days|on|their|his|her|problem"
            + "|list|chart|record|records|file|anymore|too|also|already))*\\s*[?.!]*\\s*$", Pattern.CASE_INSENSITIVE);
    /** Words in an anchor position that name no particular drug or condition. */
    private static final Set<String> GENERIC = Set.of("been", "being", "had", "any", "anything", "something", "some", "their",
            "his", "her", "them", "it", "this", "that", "these", "those", "what", "which", "medication", "medications",
            "medicine", "medicines", "drug", "drugs", "prescription", "prescriptions", "condition", "conditions", "diagnosis",
            "diagnoses", "disease", "diseases", "record", "records", "patient", "patients", "code", "codes", "history",
            "allergies", "allergy", "problem", "problems", "symptoms", "visit", "visits", "appointment", "treatment",
            "therapy", "more", "most", "many", "much", "no", "not", "ever", "file", "chart", "list", "care", "time", "same",
            "other", "both", "all", "each", "every", "one", "two", "insurance", "beds", "lot", "diagnosed", "for", "with",
            "to", "of", "in", "at", "by", "from", "about", "and", "or", "now", "still", "currently", "also", "anyone",
            "someone", "there", "here", "when", "where", "why", "how", "you", "him", "me", "us", "ones");

    private QuestionAnchors() {
    }

    /** The codes, the drug or condition word in an anchor position, and the full names {@code question} names, each once, in order. */
    public static List<Anchor> of(String question) {
        return of(question, List.of());
    }

    /**
     * The codes, the drug or condition word in an anchor position, and the persons (full names, patients' numbers)
     * {@code question} names, each once, in order.
     *
     * @param patientNumbers the question's words (folded) that name a patient by number
     */
    public static List<Anchor> of(String question, Collection<String> patientNumbers) {
        Set<String> seen = new LinkedHashSet<>();
        List<Anchor> anchors = new ArrayList<>();
        for (Anchor code : codes(question, patientNumbers)) {
            if (seen.add(code.text())) {
                anchors.add(code);
            }
        }
        term(question).ifPresent(t -> {
            if (seen.add(t.anchor().text())) {
                anchors.add(t.anchor());
            }
        });
        for (Anchor name : names(question, patientNumbers)) {
            if (seen.add(name.text())) {
                anchors.add(name);
            }
        }
        return anchors;
    }

    /** The codes {@code question} names, each once, in order. */
    public static List<Anchor> codes(String question) {
        return codes(question, List.of());
    }

    /** The codes {@code question} names, each once, in order; a patient's number is none of them. */
    public static List<Anchor> codes(String question, Collection<String> patientNumbers) {
        List<NumberMentions.Mention> persons = patientNumbersIn(question, patientNumbers);
        Set<String> seen = new LinkedHashSet<>();
        List<Anchor> codes = new ArrayList<>();
        Matcher m = CODE.matcher(question);
        while (m.find()) {
            int start = m.start();
            if (persons.stream().noneMatch(p -> p.start() <= start && start < p.end()) && seen.add(m.group())) {
                codes.add(new Anchor(m.group(), List.of(fold(m.group()))));
            }
        }
        return codes;
    }

    /** The full names {@code question} names (never its first word), each once, in order. */
    public static List<Anchor> names(String question) {
        return names(question, List.of());
    }

    /**
     * The persons {@code question} names, each once: its full names (never its first word) in order, then the numbers
     * it names patients by.
     */
    public static List<Anchor> names(String question, Collection<String> patientNumbers) {
        Set<String> seen = new LinkedHashSet<>();
        List<Anchor> names = new ArrayList<>();
        Matcher first = FIRST_WORD.matcher(question);
        int nameFrom = first.find() ? first.end() : 0;
        Matcher m = FULL_NAME.matcher(question);
        while (m.find(nameFrom)) {
            if (seen.add(m.group())) {
                names.add(new Anchor(m.group(), List.of(fold(m.group()).split("[\\s-]+"))));
            }
            nameFrom = m.end();
        }
        for (NumberMentions.Mention number : patientNumbersIn(question, patientNumbers)) {
            if (seen.add(number.number())) {
                names.add(new Anchor(number.number(), List.of(NUMBER_SEPARATOR.split(fold(number.number())))));
            }
        }
        return names;
    }

    /** Where the question writes a patient's number: where a number goes by its words, or a word that is one. */
    private static List<NumberMentions.Mention> patientNumbersIn(String question, Collection<String> patientNumbers) {
        List<NumberMentions.Mention> found = new ArrayList<>(NumberMentions.in(question));
        if (!patientNumbers.isEmpty()) {
            Matcher word = NUMBER_WORD.matcher(question);
            while (word.find()) {
                int start = word.start();
                if (patientNumbers.contains(Words.fold(word.group())) && found.stream().noneMatch(f -> f.start() == start)) {
                    found.add(new NumberMentions.Mention(word.group(), start, word.end()));
                }
            }
        }
        return found;
    }

    /** The drug or condition word in an anchor position, if the question has one (the first such place counts). */
    public static java.util.Optional<TermAnchor> term(String question) {
        for (Map.Entry<Pattern, TermKind> position : POSITIONS.entrySet()) {
            Matcher m = position.getKey().matcher(question);
            while (m.find()) {
                String word = m.group(1);
                if (GENERIC.contains(fold(word))) {
                    continue;
                }
                if (TAIL.matcher(question.substring(m.end())).matches()) {
                    return java.util.Optional.of(new TermAnchor(new Anchor(word, List.of(fold(word))), position.getValue()));
                }
                Matcher salt = SALT.matcher(question.substring(m.end()));
                if (position.getValue() == TermKind.DRUG && salt.find()
                        && TAIL.matcher(question.substring(m.end() + salt.end())).matches()) {
                    String drug = word + " " + salt.group(1);
                    return java.util.Optional.of(new TermAnchor(new Anchor(drug, List.of(fold(word), fold(salt.group(1)))),
                            TermKind.DRUG));
                }
            }
        }
        return java.util.Optional.empty();
    }

    private static final Map<Pattern, TermKind> POSITIONS = orderedPositions();

    private static Map<Pattern, TermKind> orderedPositions() {
        Map<Pattern, TermKind> m = new java.util.LinkedHashMap<>();
        m.put(DRUG_POSITION, TermKind.DRUG);
        m.put(CONDITION_POSITION, TermKind.CONDITION);
        return java.util.Collections.unmodifiableMap(m);
    }

    /** Whether {@code text} mentions every one of {@code anchors}. */
    public static boolean mentionsAll(List<Anchor> anchors, String text) {
        Set<String> tokens = tokens(text);
        return anchors.stream().allMatch(a -> tokens.containsAll(a.tokens()));
    }

    /** Lower case with accents removed: how anchors and record texts are compared. */
    public static String fold(String s) {
        String lower = s.toLowerCase(Locale.ROOT);
        return ASCII.matcher(lower).matches() ? lower
                : MARKS.matcher(java.text.Normalizer.normalize(lower, java.text.Normalizer.Form.NFD)).replaceAll("");
    }

    private static final Pattern ASCII = Pattern.compile("\\p{ASCII}*");
    private static final Pattern MARKS = Pattern.compile("\\p{M}+");

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
        for (String token : TOKEN_SEPARATOR.split(fold(text))) {
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

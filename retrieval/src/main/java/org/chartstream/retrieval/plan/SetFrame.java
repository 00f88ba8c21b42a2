package org.chartstream.retrieval.plan;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.chartstream.retrieval.SetResult;

/**
 * What a question asks for over its rows, read from its frame words: how many (rows or patients), the most frequent
 * values, the latest or earliest, which patients, or a list; and whether it asks for current rows only ("still",
 * "currently", "not yet discharged"). Marks the frame's words so that what is left names concepts.
 *
 * @param output       what is asked for, or null when the frame asks for none of these (a field's values or a list
 *                     may still be asked, the planner decides by the fields and scope)
 * @param countPatients for a count: distinct patients rather than rows
 * @param topN         for the most frequent values: how many
 * @param byPatients   for the most frequent values: ranked by patients rather than rows
 * @param current      only rows whose fact has not ended
 * @param asksForAll   the question says "all", "every", "full", "complete" or "list"
 */
public record SetFrame(SetResult.Output output, boolean countPatients, int topN, boolean byPatients, boolean current,
                       boolean asksForAll) {

    private static final Pattern HOW_MANY = Pattern.compile("\\bhow many\\b|\\bnumber of\\b|\\bcount (?:of|the)\\b");
    private static final Pattern HOW_MANY_PATIENTS = Pattern.compile("\\b(?:how many|number of|count of)"
            + "(?: (?:different|distinct|unique|individual|of|our|the|separate))* (?:patients|people|persons|subjects|individuals)\\b");
    private static final Pattern TOP = Pattern.compile("\\b(?:most|least) (?:common|commonly|frequent|frequently|often|prescribed"
            + "|ordered|performed|diagnosed|given)\\b|\\btop\\b|\\bon the most\\b|\\bthe most (?:patients|people|often)\\b");
    private static final Pattern LATEST = Pattern.compile("\\b(?:most recent|latest|last|newest|most recently)\\b");
    private static final Pattern EARLIEST = Pattern.compile("\\b(?:first|earliest|oldest)\\b");
    private static final Pattern PATIENTS = Pattern.compile("^\\W*(?:which|what)(?: \\w+){0,4} (?:patients|people|subjects)\\b"
            + "|^\\W*who(?:m)?\\b|\\b(?:list|show|find|name|give|identify)(?: me)?(?: all| every| the| our)* (?:patients|people|subjects)\\b"
            + "|^\\W*(?:patients|people|subjects)\\b|\\bwhich ones\\b|\\bwho are they\\b|\\bwhich patients\\b|\\bany(?:one|body)\\b"
            + "|\\bwho (?:was|were|is|are|has|had|got|received|took)\\b");
    private static final Pattern ALL = Pattern.compile("\\b(?:all|every|everything|full|complete|entire|list)\\b");
    private static final Pattern CURRENT = Pattern.compile("\\b(?:current|currently|still|ongoing|active|not yet \\w+|open)\\b");
    private static final Map<String, Integer> NUMBERS = Map.ofEntries(Map.entry("one", 1), Map.entry("two", 2),
            Map.entry("three", 3), Map.entry("four", 4), Map.entry("five", 5), Map.entry("six", 6), Map.entry("seven", 7),
            Map.entry("eight", 8), Map.entry("nine", 9), Map.entry("ten", 10), Map.entry("twenty", 20));

    static final Set<String> NEGATION = Set.of("not", "never", "without", "no", "none", "except", "excluding", "nor");
    private static final Set<String> CONTRACTED_NOT = Set.of("don", "doesn", "didn", "isn", "wasn", "weren", "aren",
            "haven", "hasn", "hadn", "won", "can");
    static final Set<String> OR = Set.of("or");
    static final Set<String> AND = Set.of("and", "plus", "both");

    /** Words of a question's frame: asking, quantifying, relating, and verbs that say a record exists. */
    static final Set<String> FRAME = Set.copyOf(List.of(
            "which", "what", "who", "whom", "whose", "when", "where", "why", "how", "is", "are", "was", "were", "be", "been",
            "being", "am", "has", "have", "had", "having", "do", "does", "did", "done", "doing", "the", "a", "an", "of", "for",
            "in", "on", "at", "to", "by", "from", "with", "within", "into", "onto", "about", "as", "any", "all", "every",
            "each", "ever", "our", "my", "your", "their", "they", "them", "those", "these", "this", "that", "it", "its",
            "there", "here", "i", "we", "you", "me", "us", "he", "she", "his", "her", "him", "list", "show", "give", "tell",
            "find", "name", "names", "identify", "please", "s", "patient", "patients", "people", "person", "persons",
            "subject", "subjects", "individual", "individuals", "record", "records", "recorded", "row", "rows", "entry",
            "entries", "database", "data", "chart", "charts", "got", "get", "gets", "getting", "received", "receive",
            "receiving", "given", "gave", "taking", "take", "takes", "took", "taken", "treated", "treatment", "undergo",
            "carry", "carries", "coded", "documented", "noted", "listed", "ordered", "written", "sent", "kinds", "kind",
            "types", "type", "sort", "sorts", "different", "distinct", "unique", "total", "number", "count", "many", "much",
            "most", "least", "common", "commonly", "frequent", "frequently", "often", "times", "top", "full", "complete",
            "entire", "whole", "history", "across", "throughout", "also", "else", "other", "anyone", "anybody", "someone",
            "somebody", "everyone", "everybody", "could", "would", "should", "will", "can", "may", "might", "over", "under",
            "during", "since", "after", "before", "between", "until", "through", "inclusive", "start", "started",
            "starting", "began", "begin", "beginning", "end", "ended", "later", "earlier", "onwards", "latest", "last",
            "recent", "recently", "first", "earliest", "newest", "oldest", "date", "time", "current", "currently", "still",
            "ongoing", "active", "yet", "open", "ones", "one", "so", "far", "put", "placed", "go", "went", "pass", "passed",
            "come", "came", "happen", "happened", "per", "overall", "altogether", "in", "i", "e", "ie", "eg", "ids", "id",
            "again", "ago", "known", "show", "shown", "seen", "said", "if", "then", "than", "set", "group", "cohort",
            "year", "years", "while", "along", "via", "using", "use", "used", "but", "counted", "according",
            "icd", "cm", "pcs", "code", "codes", "please", "ever", "any", "some", "various", "overall", "all"));

    /** Reads the frame of {@code words}, marking its words. */
    public static SetFrame read(QuestionWords words) {
        String text = words.text().replaceAll("[^\\p{L}\\p{N}]+", " ");
        boolean current = CURRENT.matcher(text).find();
        if (current) {
            int notYet = words.find(List.of("not", "yet"), 0);
            if (notYet >= 0) {
                words.mark(notYet, notYet + 2, QuestionWords.Role.FRAME);
            }
        }
        for (int i = 0; i < words.size(); i++) {
            String w = words.word(i);
            if (words.role(i) != QuestionWords.Role.CONTENT) {
                continue;
            }
            if (NEGATION.contains(w) || (w.equals("t") && i > 0 && CONTRACTED_NOT.contains(words.word(i - 1)))) {
                words.mark(i, i + 1, QuestionWords.Role.NEGATION);
                if (w.equals("t")) {
                    words.mark(i - 1, i, QuestionWords.Role.FRAME);
                }
            }
        }
        words.markAll(OR, QuestionWords.Role.OR);
        words.markAll(AND, QuestionWords.Role.AND);
        SetResult.Output output = null;
        boolean countPatients = false;
        int topN = 0;
        boolean byPatients = false;
        if (TOP.matcher(text).find()) {
            output = SetResult.Output.TOP_VALUES;
            topN = topN(words);
            byPatients = words.contains("patients") || words.contains("people") || words.contains("patient");
        } else if (HOW_MANY.matcher(text).find()) {
            output = SetResult.Output.COUNT;
            countPatients = HOW_MANY_PATIENTS.matcher(text).find();
        } else if (LATEST.matcher(text).find()) {
            output = SetResult.Output.LATEST;
        } else if (EARLIEST.matcher(text).find()) {
            output = SetResult.Output.EARLIEST;
        } else if (PATIENTS.matcher(text).find()) {
            output = SetResult.Output.PATIENTS;
        }
        boolean all = ALL.matcher(text).find();
        words.markAll(FRAME, QuestionWords.Role.FRAME);
        return new SetFrame(output, countPatients, topN, byPatients, current, all);
    }

    /** The count word of a top-n question ("five most common", "top 3"), 1 when it writes none; the word is marked. */
    private static int topN(QuestionWords words) {
        for (int i = 0; i < words.size(); i++) {
            if (words.role(i) != QuestionWords.Role.CONTENT) {
                continue;
            }
            String w = words.word(i);
            Integer n = NUMBERS.get(w);
            if (n == null && w.matches("\\d{1,2}")) {
                n = Integer.parseInt(w);
            }
            if (n != null && n > 0) {
                words.mark(i, i + 1, QuestionWords.Role.NUMBER);
                return n;
            }
        }
        return 1;
    }

    /** Whether the output came from the frame's words (else the planner decides it). */
    public boolean asksOutput() {
        return output != null;
    }
}

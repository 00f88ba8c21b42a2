package org.chartstream.retrieval.generate;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A record's text as the ingest projects it ({@code record: …}, {@code patient: Name (number)}, then
 * {@code field: value} lines, a long value running over several lines) cut into what an extractive answer quotes:
 * each short field whole, and a long field (a note's text) sentence by sentence, each sentence knowing the section
 * heading above it ({@code PLAN}, {@code HISTORY OF PRESENT ILLNESS}).
 *
 * @param recordType the {@code record:} line's value, or empty
 * @param patient    the {@code patient:} line's value (name and number), or empty
 * @param sentences  the quotable pieces in document order
 */
record RecordSentences(String recordType, String patient, List<Sentence> sentences) {
    /** A field or sentence; {@code section} is the heading above it in a long field, or empty. */
    record Sentence(String section, String text) {
        /** What is scored: the heading says what the sentence is about ("plan"), so it is scored with it. */
        String scored() {
            return section.isEmpty() ? text : section + ": " + text;
        }
    }

    private static final java.util.Set<String> HEADER_FIELDS = java.util.Set.of("record", "patient");
    private static final Pattern FIELD = Pattern.compile("^([a-z][a-z0-9 ]{0,40}): ?(.*)$");
    private static final Pattern HEADING = Pattern.compile("^[A-Z][A-Z0-9 /&,()-]{2,60}:?$");
    /** A sentence ends at . ! or ? before a capital, a digit or an opening; not after a title (Mr., Dr.) or an initial. */
    private static final Pattern SENTENCE_END = Pattern.compile(
            "(?<!\\b(?:Mr|Mrs|Ms|Dr|St|vs|No)\\.)(?<!\\b\\p{Lu}\\.)(?<=[.!?])\\s+(?=[\\p{Lu}\\d\"(])");
    /** Fields of this many characters or fewer are quoted whole, longer ones sentence by sentence. */
    private static final int SHORT_FIELD_CHARS = 160;

    static RecordSentences of(String text) {
        String recordType = "";
        String patient = "";
        List<String[]> fields = new ArrayList<>();
        for (String line : text.split("\n")) {
            Matcher field = FIELD.matcher(line);
            if (field.matches()) {
                fields.add(new String[] {field.group(1), field.group(2)});
            } else if (fields.isEmpty() || HEADER_FIELDS.contains(fields.get(fields.size() - 1)[0])) {
                // a chunk that starts inside a long field: its text follows the repeated header without a field name
                fields.add(new String[] {"", line});
            } else {
                String[] last = fields.get(fields.size() - 1);
                last[1] = last[1] + "\n" + line;
            }
        }
        List<Sentence> sentences = new ArrayList<>();
        for (String[] f : fields) {
            String name = f[0];
            String value = f[1].strip();
            if (name.equals("record")) {
                recordType = value;
            } else if (name.equals("patient")) {
                patient = value;
            } else if (!value.isEmpty()) {
                split(name, value, sentences);
            }
        }
        return new RecordSentences(recordType, patient, sentences);
    }

    private static void split(String field, String value, List<Sentence> into) {
        if (value.length() <= SHORT_FIELD_CHARS && value.indexOf('\n') < 0) {
            into.add(new Sentence("", field.isEmpty() ? value : field + ": " + value));
            return;
        }
        String section = "";
        for (String paragraph : value.split("\n")) {
            String p = paragraph.strip();
            if (p.isEmpty()) {
                continue;
            }
            if (HEADING.matcher(p).matches()) {
                section = p.endsWith(":") ? p.substring(0, p.length() - 1) : p;
                continue;
            }
            for (String s : SENTENCE_END.split(p)) {
                Sentence sentence = new Sentence(section, s.strip());
                // notes repeat short lines ("Hypertension.") under several headings: one of them is enough
                if (!s.isBlank() && into.stream().noneMatch(q -> q.text().equals(sentence.text()))) {
                    into.add(sentence);
                }
            }
        }
    }
}

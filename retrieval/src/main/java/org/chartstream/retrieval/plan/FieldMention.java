package org.chartstream.retrieval.plan;

import java.util.ArrayList;
import java.util.List;
import org.chartstream.core.store.rowset.FieldValues;

/**
 * A field of a table the question names, by the field's label, its column name (underscores as spaces) or one of its
 * binding's terms ({@code route}: "administered"): "How is amoxicillin <u>administered</u>?", "which <u>care
 * units</u>". The columns tying a row to its patient or admission are not asked for ({@link BoundTable#askableFields}).
 *
 * @param table the table
 * @param field the field (column or lookup field)
 * @param start the first word of the name in the question
 * @param end   past its last word
 */
public record FieldMention(BoundTable table, String field, int start, int end) {

    /** Every field of {@code tables} the question names, longest names first; their words marked {@link QuestionWords.Role#FIELD}. */
    public static List<FieldMention> in(QuestionWords words, List<BoundTable> tables) {
        List<FieldMention> found = new ArrayList<>();
        for (BoundTable table : tables) {
            for (String field : table.askableFields()) {
                for (List<String> name : names(table, field)) {
                    int at = findAllowingPlural(words, name);
                    if (at >= 0) {
                        found.add(new FieldMention(table, field, at, at + name.size()));
                    }
                }
            }
        }
        found.sort((a, b) -> Integer.compare(b.end() - b.start(), a.end() - a.start()));
        List<FieldMention> kept = new ArrayList<>();
        for (FieldMention m : found) {
            boolean overlaps = kept.stream().anyMatch(k -> k.start() < m.end() && m.start() < k.end());
            if (!overlaps) {
                kept.add(m);
                words.mark(m.start(), m.end(), QuestionWords.Role.FIELD);
            }
        }
        return kept;
    }

    private static List<List<String>> names(BoundTable table, String field) {
        List<List<String>> names = new ArrayList<>();
        names.add(List.copyOf(FieldValues.words(table.binding().label(field))));
        names.add(List.copyOf(FieldValues.words(field.replace('_', ' '))));
        table.binding().fieldTerms().getOrDefault(field, List.of())
                .forEach(t -> names.add(List.copyOf(FieldValues.words(t))));
        names.removeIf(List::isEmpty);
        return names;
    }

    /** Where the name is written, its last word also as a plural ("routes", "care units"). */
    private static int findAllowingPlural(QuestionWords words, List<String> name) {
        for (int i = 0; i + name.size() <= words.size(); i++) {
            boolean match = true;
            for (int j = 0; j < name.size() && match; j++) {
                String w = words.word(i + j);
                String n = name.get(j);
                boolean last = j == name.size() - 1;
                match = words.role(i + j) == QuestionWords.Role.CONTENT
                        && (w.equals(n) || (last && (w.equals(n + "s") || w.equals(n + "es"))));
            }
            if (match) {
                return i;
            }
        }
        return -1;
    }
}

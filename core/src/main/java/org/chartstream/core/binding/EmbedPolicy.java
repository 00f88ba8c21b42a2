package org.chartstream.core.binding;

import java.util.List;

/**
 * What of a row the embedding model reads. {@link Mode#ROW}: the row's whole text (the default).
 * {@link Mode#FIELDS}: only the named fields' text, so rows that agree on them (every result of one lab test) share
 * one vector and the model runs once per distinct text; the lexical side and the row-set queries still see the whole
 * row.
 */
public record EmbedPolicy(Mode mode, List<String> fields) {
    public enum Mode { ROW, FIELDS }

    public static final EmbedPolicy ROW = new EmbedPolicy(Mode.ROW, List.of());

    public EmbedPolicy {
        fields = List.copyOf(fields);
        if ((mode == Mode.FIELDS) == fields.isEmpty()) {
            throw new IllegalArgumentException("an embed policy of fields names at least one field, and only then");
        }
    }

    public static EmbedPolicy fields(List<String> fields) {
        return new EmbedPolicy(Mode.FIELDS, fields);
    }
}

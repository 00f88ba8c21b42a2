package org.chartstream.ingest.chunk;

import java.util.Map;
import org.chartstream.core.binding.EmbedPolicy;
import org.chartstream.core.binding.TableBinding;

/**
 * What the embedding model reads of a row whose table's {@link EmbedPolicy} names fields: those fields'
 * {@code label: value} lines, in the policy's order, from the row's shown fields. Rows that agree on them (every result
 * of one lab test) get one text, so one vector and one model call. The vector then no longer sees the rest of the row
 * (a result's value, unit, flag, time, patient): those are found by the lexical and exact searches, which still read
 * the whole row.
 */
public final class EmbedText {
    private EmbedText() {
    }

    /**
     * The embed text of a row with these shown fields (column or lookup field to display value), or null when the
     * policy is the whole row, or when the row shows none of the named fields (rows that share nothing must not share
     * one vector: such a row is embedded from its own text).
     */
    public static String of(TableBinding binding, Map<String, String> shown) {
        if (binding == null || binding.embed().mode() != EmbedPolicy.Mode.FIELDS) {
            return null;
        }
        StringBuilder text = new StringBuilder();
        for (String field : binding.embed().fields()) {
            String value = shown.get(field);
            if (value != null && !value.isBlank()) {
                text.append(binding.label(field)).append(": ").append(value).append('\n');
            }
        }
        return text.isEmpty() ? null : text.toString().strip();
    }
}

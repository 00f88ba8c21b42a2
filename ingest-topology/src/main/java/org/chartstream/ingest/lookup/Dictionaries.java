package org.chartstream.ingest.lookup;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.chartstream.core.binding.CodeLookup;
import org.chartstream.core.binding.SourceBinding;

/**
 * The rows of a source's dictionary tables as the lookups that use them need them, in the planner's changelogged
 * stores: per code ({@link #codeKey}: dictionary, key columns, trimmed key values) the meaning columns of every lookup
 * keyed so, and per dictionary row the codes it provides (a delete carries no values to find them by).
 *
 * <p>The planner task keeps them itself rather than join them as a {@code GlobalKTable} or a foreign-key join:
 * one task reads all of a source's tables (each table's change topic has one partition), so the store is exact and
 * sees a dictionary change in the same order as the rows it affects; a row that uses a code registers under it
 * ({@link RowReferences}), and a change of the code re-chunks exactly those rows under the generation they were
 * written to, with the counts and the status in the same transaction. A global table is read by a separate thread
 * with no order relative to the row topics, so a meaning change could not re-chunk the rows already indexed without
 * a second index of them anyway; a foreign-key join re-emits every joined row as a join result and would need the
 * generation, row-image and patient logic downstream of it again. The figures favour the local store: the MIMIC-IV
 * demo's dictionaries hold 109,776 (diagnoses), 85,258 (procedures) and 1,623 (lab items) rows against 4,506
 * diagnosis rows using them, so a dictionary row costs two store writes and no embedding, most codes are used by no
 * row (their arrival chunks nothing again), and a global table would copy all of them to every ingest instance to
 * serve the one planner task that reads them.
 */
public final class Dictionaries {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<LinkedHashMap<String, String>> MEANINGS = new TypeReference<>() {
    };
    private final KeyValueStore<String, String> entries;
    private final KeyValueStore<String, String> rows;

    /**
     * @param entries code → the meaning columns of it (JSON)
     * @param rows    dictionary row ({@code RowId.id()}) → the codes it provides, one a line
     */
    public Dictionaries(KeyValueStore<String, String> entries, KeyValueStore<String, String> rows) {
        this.entries = entries;
        this.rows = rows;
    }

    /**
     * What a dictionary row's change did.
     *
     * @param wasKept whether the row was kept before
     * @param isKept  whether it is kept now (it provides at least one code)
     * @param changed the codes added, changed or gone: the rows using them are to be chunked again
     */
    public record Applied(boolean wasKept, boolean isKept, List<String> changed) {
    }

    /**
     * The key of a code in {@code dictionary} keyed by {@code columns}: {@code source:dictionary(c1,c2) US v1 US v2},
     * each value trimmed ({@code CHAR(7)} pads); null when a value is missing or blank (no code).
     */
    public static String codeKey(String sourceId, String dictionary, List<String> columns, List<String> values) {
        StringBuilder key = new StringBuilder(sourceId).append(':').append(dictionary).append('(')
                .append(String.join(",", columns)).append(')');
        for (String value : values) {
            if (value == null || value.isBlank()) {
                return null;
            }
            key.append('\u001F').append(value.strip());
        }
        return key.toString();
    }

    /** The code key of a row's values for {@code lookup} (its code columns), or null when it has no code. */
    public static String codeKey(String sourceId, CodeLookup lookup, Map<String, String> row) {
        return codeKey(sourceId, lookup.dictionary(), lookup.dictionaryColumns(), lookup.codeColumns().stream().map(row::get).toList());
    }

    /** Every kept meaning column of a code; empty when the dictionary does not hold the code. */
    public Map<String, String> meanings(String codeKey) {
        String encoded = entries.get(codeKey);
        return encoded == null ? Map.of() : decode(encoded);
    }

    /**
     * Keeps (or, {@code after} null, forgets) a dictionary row: the codes it provides to each lookup of the source
     * that names its table, with their meaning columns.
     */
    public Applied apply(String sourceId, SourceBinding binding, String dictionary, String rowStoreKey, Map<String, String> after) {
        String kept = rows.get(rowStoreKey);
        List<String> before = kept == null ? List.of() : List.of(kept.split("\n"));
        Map<String, Map<String, String>> provided = new LinkedHashMap<>();
        if (after != null) {
            binding.tables().values().stream().flatMap(t -> t.lookups().stream()).filter(l -> l.dictionary().equals(dictionary))
                    .forEach(lookup -> {
                        String key = codeKey(sourceId, dictionary, lookup.dictionaryColumns(),
                                lookup.dictionaryColumns().stream().map(after::get).toList());
                        if (key != null) {
                            String meaning = after.get(lookup.meaningColumn());
                            provided.computeIfAbsent(key, k -> new LinkedHashMap<>())
                                    .put(lookup.meaningColumn(), meaning == null ? null : meaning.strip());
                        }
                    });
        }
        List<String> changed = new ArrayList<>();
        for (String key : before) {
            if (!provided.containsKey(key)) {
                entries.delete(key);
                changed.add(key);
            }
        }
        provided.forEach((key, meanings) -> {
            String encoded = encode(meanings);
            if (!encoded.equals(entries.get(key))) {
                entries.put(key, encoded);
                changed.add(key);
            }
        });
        if (provided.isEmpty()) {
            rows.delete(rowStoreKey);
        } else {
            rows.put(rowStoreKey, String.join("\n", provided.keySet()));
        }
        return new Applied(kept != null, !provided.isEmpty(), changed);
    }

    /** Every kept row of dictionary {@code tablePrefix} ({@code source:table:}): what a truncate forgets. */
    public List<String> rowsOf(String tablePrefix) {
        List<String> keys = new ArrayList<>();
        try (KeyValueIterator<String, String> it = rows.prefixScan(tablePrefix, new StringSerializer())) {
            it.forEachRemaining(kv -> keys.add(kv.key));
        }
        return keys;
    }

    private static String encode(Map<String, String> meanings) {
        try {
            return JSON.writeValueAsString(meanings);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode a dictionary entry", e);
        }
    }

    private static Map<String, String> decode(String encoded) {
        try {
            return JSON.readValue(encoded, MEANINGS);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("corrupt dictionary entry in the ingest state store", e);
        }
    }
}

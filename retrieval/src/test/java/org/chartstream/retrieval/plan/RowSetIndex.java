package org.chartstream.retrieval.plan;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.chartstream.core.store.ChunkFixture;
import org.chartstream.core.store.PatientLabel;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.SearchHit;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.core.store.TableRef;
import org.chartstream.core.store.TermIndex;
import org.chartstream.core.store.WeightedText;
import org.chartstream.core.store.rowset.FieldValues;
import org.chartstream.core.store.rowset.RowSetOutput;
import org.chartstream.core.store.rowset.RowSetQuery;
import org.chartstream.core.store.rowset.RowSetResult;
import org.chartstream.core.store.rowset.RowSetRow;
import org.chartstream.core.store.rowset.ValueTally;

/**
 * An index of rows held in memory that answers exact row-set queries by the port's own decisions
 * ({@link org.chartstream.core.store.rowset.RowSet#matches}, {@link ValueTally}): the semantics the stores' contract
 * ({@code RowSetContract}) holds them to, for tests of the plans without a store module. It searches nothing.
 */
public class RowSetIndex implements org.chartstream.retrieval.search.SearchIndex {
    public static final String SOURCE = "hosp";

    private final Map<RowRef, StoredChunk> rows = new LinkedHashMap<>();
    private final Map<String, PatientLabel> labels = new LinkedHashMap<>();

    /** Labels the rows of {@code patient} added from now on with {@code name} and {@code number}. */
    public RowSetIndex patient(String patient, String name, String number) {
        labels.put(patient, PatientLabel.of(number, name, null));
        return this;
    }

    /**
     * Adds a row of {@code table} of patient {@code patient} (labelled as {@link #patient} said, else with the key as
     * its number; null: no patient).
     */
    public RowSetIndex row(String table, String key, String patient, String... fieldPairs) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (int i = 0; i < fieldPairs.length; i += 2) {
            fields.put(fieldPairs[i], fieldPairs[i + 1]);
        }
        RowRef ref = new RowRef(SOURCE, table, key);
        PatientLabel label = patient == null ? null : labels.getOrDefault(patient, PatientLabel.of(patient, null, null));
        StoredChunk chunk = ChunkFixture.of(ref).patient(patient).label(label)
                .text(table + " " + String.join(" ", fields.values())).build().withFields(fields);
        rows.put(ref, chunk);
        return this;
    }

    @Override
    public boolean answersRowSets() {
        return true;
    }

    @Override
    public RowSetResult rowSet(RowSetQuery query) {
        List<StoredChunk> set = new ArrayList<>(rows.values().stream().filter(query.rows()::matches).toList());
        if (query.except() != null) {
            List<StoredChunk> out = rows.values().stream().filter(query.except()::matches).toList();
            if (query.exceptBy() == RowSetQuery.ExceptBy.ROW) {
                set.removeAll(out);
            } else {
                Set<String> gone = out.stream().map(StoredChunk::patientKey).filter(java.util.Objects::nonNull).collect(Collectors.toSet());
                set.removeIf(c -> c.patientKey() != null && gone.contains(c.patientKey()));
            }
        }
        long n = set.size();
        long patients = set.stream().map(StoredChunk::patientKey).filter(java.util.Objects::nonNull).distinct().count();
        return switch (query.output()) {
            case RowSetOutput.Rows r -> RowSetResult.listing(r, n, patients, set.stream().map(RowSetIndex::row).toList(), n, 0);
            case RowSetOutput.Count c -> RowSetResult.counted(c, n, patients);
            case RowSetOutput.DistinctValues d -> tally(set, d.field()).result(d, n, patients);
            case RowSetOutput.TopValues t -> tally(set, t.field()).result(t, n, patients);
            case RowSetOutput.Extreme e -> extreme(set, e, n, patients);
        };
    }

    private static ValueTally tally(List<StoredChunk> set, String field) {
        ValueTally tally = new ValueTally();
        set.stream().filter(c -> c.fields().containsKey(field)).forEach(c -> tally.add(c.fields().get(field), c.patientKey(), 1));
        return tally;
    }

    private static RowSetResult extreme(List<StoredChunk> set, RowSetOutput.Extreme e, long n, long patients) {
        List<StoredChunk> with = set.stream().filter(c -> c.fields().containsKey(e.field())).toList();
        Comparator<String> order = Comparator.naturalOrder();
        Optional<String> best = with.stream().map(c -> FieldValues.folded(c.fields().get(e.field())))
                .max(e.end() == RowSetOutput.End.LATEST ? order : order.reversed());
        List<RowSetRow> tied = best.isEmpty() ? List.of() : with.stream()
                .filter(c -> FieldValues.folded(c.fields().get(e.field())).equals(best.get())).map(RowSetIndex::row).toList();
        return RowSetResult.listing(e, n, patients, tied, tied.size(), n - with.size());
    }

    private static RowSetRow row(StoredChunk c) {
        return new RowSetRow(c.row(), c.patientKey(), c.patient(), c.fields());
    }

    @Override
    public List<SearchHit> vectorSearch(float[] query, int k, RetrievalFilter filter) {
        return List.of();
    }

    @Override
    public List<SearchHit> lexicalSearch(String query, int k, RetrievalFilter filter) {
        return List.of();
    }

    @Override
    public List<SearchHit> weightedLexicalSearch(List<WeightedText> query, int k, RetrievalFilter filter) {
        return List.of();
    }

    @Override
    public boolean weighsLexicalTerms() {
        return false;
    }

    @Override
    public List<StoredChunk> rowChunks(RowRef row) {
        StoredChunk c = rows.get(row);
        return c == null ? List.of() : List.of(c);
    }

    @Override
    public Set<TableRef> indexedTables() {
        Set<TableRef> out = new LinkedHashSet<>();
        rows.keySet().forEach(r -> out.add(new TableRef(r.sourceId(), r.table())));
        return out;
    }

    @Override
    public Optional<TermIndex> termIndex() {
        return Optional.empty();
    }
}

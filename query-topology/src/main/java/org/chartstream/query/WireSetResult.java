package org.chartstream.query;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.ToIntFunction;
import org.chartstream.retrieval.SetResult;
import org.chartstream.schemas.SetAudit;
import org.chartstream.schemas.SetOutput;
import org.chartstream.schemas.SetValue;

/**
 * A whole-set answer's {@link SetResult} as the reply carries it ({@link org.chartstream.schemas.SetResult}) and as the
 * audit keeps it ({@link SetAudit}). The counts are always exact; the lists share a budget of
 * {@link #MAX_LISTED_CHARS}, filled in order (concepts, values, patients, rows), each list stopping at its first entry
 * that does not fit: a reply that no producer could write would be sent again forever, and a repeat's copy of it is
 * kept in the request-id store. A cut reply says so ({@code lists_cut}) and is not {@code complete}.
 */
public final class WireSetResult {
    /**
     * Characters the lists of one reply may hold (each entry its length plus one): at most 768 KiB in UTF-8, under a
     * broker's default record limit of 1 MiB.
     */
    public static final int MAX_LISTED_CHARS = 256 * 1024;

    private WireSetResult() {
    }

    /** {@code null} (the wire's "not set") for an answer that is not a whole-set answer. */
    public static org.chartstream.schemas.SetResult of(Optional<SetResult> answered) {
        if (answered.isEmpty()) {
            return null;
        }
        SetResult set = answered.get();
        Budget budget = new Budget();
        List<String> concepts = budget.take(set.concepts(), String::length);
        List<SetResult.Value> values = budget.take(set.values(), v -> v.value().length());
        List<String> patients = budget.take(set.patientsListed(), String::length);
        List<String> rowIds = budget.take(set.rowIds(), String::length);
        return org.chartstream.schemas.SetResult.newBuilder().setOutput(output(set.output()))
                .setField(set.field()).setRows(set.rows()).setPatients(set.patients()).setPatientsListed(patients)
                .setValues(values.stream().map(v -> new SetValue(v.value(), v.rows(), v.patients())).toList())
                .setRowIds(rowIds).setConcepts(concepts).setComplete(set.complete() && !budget.cut)
                .setListsCut(budget.cut).build();
    }

    /** Exhaustive: a kind retrieval adds does not compile until the wire has it. */
    private static SetOutput output(SetResult.Output output) {
        return switch (output) {
            case PATIENTS -> SetOutput.PATIENTS;
            case ROWS -> SetOutput.ROWS;
            case COUNT -> SetOutput.COUNT;
            case VALUES -> SetOutput.VALUES;
            case TOP_VALUES -> SetOutput.TOP_VALUES;
            case LATEST -> SetOutput.LATEST;
            case EARLIEST -> SetOutput.EARLIEST;
        };
    }

    /** The audit's copy of a reply's set result: its counts, row ids and concepts, how many values and patients it listed. */
    public static SetAudit audit(org.chartstream.schemas.SetResult wire) {
        if (wire == null) {
            return null;
        }
        return SetAudit.newBuilder().setOutput(wire.getOutput()).setField(wire.getField()).setRows(wire.getRows())
                .setPatients(wire.getPatients()).setPatientsListed(wire.getPatientsListed().size())
                .setValuesListed(wire.getValues().size()).setRowIds(wire.getRowIds()).setConcepts(wire.getConcepts())
                .setComplete(wire.getComplete()).setListsCut(wire.getListsCut()).build();
    }

    /** What is left of {@link #MAX_LISTED_CHARS}, and whether a list was cut. */
    private static final class Budget {
        private int left = MAX_LISTED_CHARS;
        private boolean cut;

        <T> List<T> take(List<T> entries, ToIntFunction<T> chars) {
            List<T> taken = new ArrayList<>(Math.min(entries.size(), 1024));
            for (T entry : entries) {
                int cost = chars.applyAsInt(entry) + 1;
                if (cost > left) {
                    cut = true;
                    break;
                }
                left -= cost;
                taken.add(entry);
            }
            return taken;
        }
    }
}

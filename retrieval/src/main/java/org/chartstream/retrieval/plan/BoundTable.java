package org.chartstream.retrieval.plan;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.chartstream.core.binding.CodeLookup;
import org.chartstream.core.binding.TableBinding;
import org.chartstream.core.store.RetrievalFilter;

/** One indexed table of one source, with its binding: what a plan's row set is read from. */
public record BoundTable(String sourceId, TableBinding binding) {
    public BoundTable {
        Objects.requireNonNull(sourceId, "sourceId");
        Objects.requireNonNull(binding, "binding");
    }

    public String table() {
        return binding.table();
    }

    /** This table's rows within {@code within} (the request's filter and patient). */
    public RetrievalFilter filter(RetrievalFilter within) {
        return within.withTables(List.of(table())).withSources(List.of(sourceId));
    }

    /**
     * The fields a question may ask the values of: the shown columns, the lookups' fields and the time columns, never
     * the columns that tie the row to its patient or admission (they scope, they are not asked for).
     */
    public List<String> askableFields() {
        Set<String> out = new LinkedHashSet<>(binding.fields());
        binding.lookups().stream().map(CodeLookup::field).forEach(out::add);
        out.addAll(binding.timeColumns());
        if (binding.endColumn() != null) {
            out.add(binding.endColumn());
        }
        if (binding.conceptField() != null) {
            out.add(binding.conceptField());
        }
        out.remove(binding.patientColumn());
        out.remove(binding.encounterColumn());
        return new ArrayList<>(out);
    }

    /** The column a question's admission number is matched on: the encounter table's number, else the row's encounter column. */
    public String admissionColumn() {
        return binding.role() == org.chartstream.core.binding.TableRole.ENCOUNTER && binding.numberColumn() != null
                ? binding.numberColumn() : binding.encounterColumn();
    }

    @Override
    public String toString() {
        return sourceId + ":" + table();
    }
}

package org.chartstream.ingest.lookup;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.chartstream.core.binding.CodeLookup;
import org.chartstream.ingest.project.PatientIdentities;
import org.chartstream.ingest.project.RowGroups;
import org.chartstream.ingest.project.TableProjection;

/**
 * What a row's text takes from other tables: the meaning of each code it looks up in a dictionary
 * ({@link Dictionaries}) and, for a table reaching its patient through an encounter, that encounter
 * ({@link PatientIdentities#encounterKey}). Every kept row is indexed under each code and encounter it names
 * ({@link RowGroups}), so that when a dictionary row or an encounter's patient changes, exactly the rows naming it are
 * chunked again ({@link #nextChanged}); a row read before its code or encounter is rendered without it and found again
 * when it arrives.
 */
public final class RowReferences {
    private final Dictionaries dictionaries;
    private final RowGroups rows;

    public RowReferences(Dictionaries dictionaries, RowGroups rows) {
        this.dictionaries = dictionaries;
        this.rows = rows;
    }

    /**
     * A row as its text shows it: its columns and each resolved lookup's field holding the meaning.
     *
     * @param unresolved the row's codes its dictionary does not hold (or holds without a meaning): shown as the code
     *                   alone
     */
    public record Rendered(Map<String, String> row, int unresolved) {
    }

    /** The row with each code's meaning added under its lookup's field; a row without lookups as it is. */
    public Rendered render(String sourceId, TableProjection projection, Map<String, String> row) {
        List<CodeLookup> lookups = projection.binding().lookups();
        if (lookups.isEmpty()) {
            return new Rendered(row, 0);
        }
        Map<String, String> rendered = new LinkedHashMap<>(row);
        Map<String, Map<String, String>> entries = new HashMap<>(); // lookups of one code (a lab item's label, fluid) read it once
        int unresolved = 0;
        for (CodeLookup lookup : lookups) {
            String code = Dictionaries.codeKey(sourceId, lookup, row);
            if (code == null) {
                rendered.remove(lookup.field());
                continue; // no code on the row: nothing to resolve
            }
            String meaning = entries.computeIfAbsent(code, dictionaries::meanings).get(lookup.meaningColumn());
            if (meaning == null || meaning.isBlank()) {
                rendered.remove(lookup.field());
                unresolved++;
            } else {
                rendered.put(lookup.field(), meaning);
            }
        }
        return new Rendered(rendered, unresolved);
    }

    /** The codes and the encounter a row names (the groups it is found again under), in lookup order. */
    public static Set<String> referencesOf(String sourceId, TableProjection projection, Map<String, String> row) {
        Set<String> references = new LinkedHashSet<>();
        if (row == null) {
            return references;
        }
        for (CodeLookup lookup : projection.binding().lookups()) {
            String code = Dictionaries.codeKey(sourceId, lookup, row);
            if (code != null) {
                references.add(code);
            }
        }
        String encounter = PatientIdentities.encounterOf(sourceId, projection, row);
        if (encounter != null) {
            references.add(encounter);
        }
        return references;
    }

    /**
     * Keeps the index in step with a kept row: the image it had ({@code before}, null if none) and has now
     * ({@code after}, null once gone).
     */
    public void rowMoved(String sourceId, String rowStoreKey, TableProjection projection, Map<String, String> before,
                         Map<String, String> after) {
        Set<String> was = referencesOf(sourceId, projection, before);
        Set<String> now = referencesOf(sourceId, projection, after);
        was.stream().filter(group -> !now.contains(group)).forEach(group -> rows.remove(group, rowStoreKey));
        now.stream().filter(group -> !was.contains(group)).forEach(group -> rows.add(group, rowStoreKey));
    }

    /** The rows naming {@code reference} (a code, an encounter) are to be chunked again. */
    public void changed(String reference) {
        rows.changedIfUsed(reference);
    }

    /** The next row naming a changed code or encounter, still to be chunked again; empty once none is left. */
    public Optional<String> nextChanged() {
        return rows.nextChanged().map(RowGroups.Member::rowStoreKey);
    }
}

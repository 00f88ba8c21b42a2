package org.chartstream.ingest.state;

import java.util.List;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.chartstream.ingest.lookup.Dictionaries;
import org.chartstream.ingest.lookup.RowReferences;
import org.chartstream.ingest.project.PatientIdentities;
import org.chartstream.ingest.project.RowGroups;
import org.chartstream.ingest.publish.TableGenerationStore;
import org.chartstream.ingest.reindex.ReindexCursors;
import org.chartstream.ingest.status.TableStatuses;

/** What the planner task keeps between records, one typed wrapper per changelogged store. */
public record PlannerState(TableGenerationStore generations, RowImages rows, TableColumns columns, TableStatuses statuses,
                           ReindexCursors cursors, PatientIdentities patients, Dictionaries dictionaries,
                           RowReferences references) {
    public static final String PATIENTS_STORE = "patient-identities";
    public static final String GENERATIONS_STORE = "table-generations";
    public static final String ROWS_STORE = "row-images";
    public static final String STATUS_STORE = "table-status";
    public static final String REINDEX_STORE = "reindex-cursors";
    public static final String COLUMNS_STORE = "table-columns";
    public static final String AWAITING_PATIENT_STORE = "rows-awaiting-patient";
    public static final String CHILDREN_STORE = "patient-children";
    public static final String RENAMED_STORE = "renamed-patients";
    public static final String ENCOUNTERS_STORE = "encounter-patients";
    public static final String DICTIONARY_STORE = "dictionary-entries";
    public static final String DICTIONARY_ROWS_STORE = "dictionary-rows";
    public static final String REFERENCING_ROWS_STORE = "rows-by-reference";
    public static final String CHANGED_REFERENCES_STORE = "changed-references";
    /** Stores written for every row: the changelog takes each write. */
    public static final List<String> PER_ROW_STORES = List.of(PATIENTS_STORE, ROWS_STORE, REINDEX_STORE, AWAITING_PATIENT_STORE,
            CHILDREN_STORE, RENAMED_STORE, ENCOUNTERS_STORE, DICTIONARY_STORE, DICTIONARY_ROWS_STORE, REFERENCING_ROWS_STORE,
            CHANGED_REFERENCES_STORE);
    /** Stores of one entry per table, rewritten for every row of it: cached, each entry reaches the changelog once per commit. */
    public static final List<String> PER_TABLE_STORES = List.of(GENERATIONS_STORE, STATUS_STORE, COLUMNS_STORE);

    /** The planner's stores as the task's context holds them. */
    public static PlannerState of(ProcessorContext<?, ?> context) {
        Dictionaries dictionaries = new Dictionaries(context.getStateStore(DICTIONARY_STORE), context.getStateStore(DICTIONARY_ROWS_STORE));
        return new PlannerState(new TableGenerationStore(context.getStateStore(GENERATIONS_STORE)),
                new RowImages(context.getStateStore(ROWS_STORE)), new TableColumns(context.getStateStore(COLUMNS_STORE)),
                new TableStatuses(context.getStateStore(STATUS_STORE)), new ReindexCursors(context.getStateStore(REINDEX_STORE)),
                new PatientIdentities(context.getStateStore(PATIENTS_STORE), context.getStateStore(AWAITING_PATIENT_STORE),
                        context.getStateStore(CHILDREN_STORE), context.getStateStore(RENAMED_STORE),
                        context.getStateStore(ENCOUNTERS_STORE)),
                dictionaries, new RowReferences(dictionaries, new RowGroups(context.getStateStore(REFERENCING_ROWS_STORE),
                        context.getStateStore(CHANGED_REFERENCES_STORE))));
    }
}

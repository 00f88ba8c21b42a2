package org.chartstream.retrieval.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Map;
import org.chartstream.core.binding.SourceBinding;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.rowset.RowSet;
import org.chartstream.core.store.rowset.RowSetOutput;
import org.chartstream.core.store.rowset.RowSetQuery;
import org.chartstream.core.store.rowset.RowSetResult;
import org.chartstream.core.store.rowset.RowSetRow;
import org.chartstream.retrieval.embed.QueryEmbedder;
import org.chartstream.retrieval.search.SearchIndex;

/**
 * Whole-set answers over an index: plans a question ({@link SetPlanner}) and runs the plan ({@link SetExecutor}). An
 * index that answers no row-set query plans nothing (its questions keep the cohort and ranked paths).
 */
public final class WholeSets {
    private final SearchIndex index;
    private final SetPlanner planner;
    private final SetExecutor executor;

    public WholeSets(SearchIndex index, SetPlanner planner, SetExecutor executor) {
        this.index = index;
        this.planner = planner;
        this.executor = executor;
    }

    /**
     * Over {@code index}, with the sources' bindings, the shipped drug classes and the index's own vocabulary (words only).
     *
     * @param citationCap     the most rows an answer lists and cites ({@code query.cohort-cap})
     * @param maxPassageChars longest passage quoted
     */
    public static WholeSets of(SearchIndex index, Map<String, SourceBinding> bindings, int citationCap, int maxPassageChars) {
        return of(index, bindings, citationCap, maxPassageChars, null);
    }

    /** @param embedder the query embedder, which links a phrase by meaning when its model is measured for it, or null */
    public static WholeSets of(SearchIndex index, Map<String, SourceBinding> bindings, int citationCap, int maxPassageChars,
                               QueryEmbedder embedder) {
        return new WholeSets(index, new SetPlanner(bindings, index::indexedTables, new ConceptVocabulary(index),
                new ConceptLinker(DrugClasses.standard(), DrugBrands.standard(), ConceptMeanings.of(embedder)), key -> patientNames(index, key)),
                new SetExecutor(index, citationCap, maxPassageChars));
    }

    /** The name, its words and the number a patient's rows are labelled with. */
    static List<String> patientNames(SearchIndex index, String patientKey) {
        RowSetResult one = index.rowSet(RowSetQuery.of(RowSet.of(RetrievalFilter.forPatient(patientKey)), new RowSetOutput.Rows(1)));
        List<String> names = new ArrayList<>();
        one.listedRows().stream().map(RowSetRow::patient).filter(Objects::nonNull).forEach(label -> {
            if (label.name() != null) {
                names.add(label.name());
                names.addAll(QuestionWords.of(label.name()).words());
            }
            if (label.number() != null) {
                names.add(label.number());
            }
        });
        return names;
    }

    /** {@link SetPlanner#plan}, when the index answers row sets. */
    public SetDecision plan(String question, RetrievalFilter filter, List<String> patientNumbers, List<String> setPatients) {
        if (!index.answersRowSets()) {
            return new SetDecision.NotASet("the index answers no row-set query");
        }
        return planner.plan(question, filter == null ? RetrievalFilter.NONE : filter, patientNumbers, setPatients);
    }

    public SetAnswer execute(SetPlan plan) {
        return executor.execute(plan);
    }
}

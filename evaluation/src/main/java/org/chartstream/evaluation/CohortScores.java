package org.chartstream.evaluation;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.chartstream.core.store.RowRef;
import org.chartstream.retrieval.generate.Passage;

/**
 * Cohort recall and precision over patients, for the questions of kind {@value #KIND}: of the patients the question's
 * complete answer set names, how many the cited rows name (recall), and of the patients the cited rows name, how
 * many are in the answer set (precision); each the mean over the questions. A question answered with no citation
 * scores 0 on both.
 */
public final class CohortScores {
    public static final String KIND = "cohort";

    private final Function<String, String> patientOfDocument;
    private double recall;
    private double precision;
    private int questions;

    /** @param patientOfDocument the patient of a document id ({@code table:row_key}), or null for a row without one */
    public CohortScores(Function<String, String> patientOfDocument) {
        this.patientOfDocument = patientOfDocument;
    }

    /** Scores {@code q} on the passages its run cited, when it is a cohort question. */
    public void add(RetrievalEvaluation.JudgedQuery q, List<Passage> cited, Function<RowRef, String> documentId) {
        if (!KIND.equals(q.kind())) {
            return;
        }
        Set<String> expected = patients(q.judgments().keySet().stream());
        Set<String> got = patients(cited.stream().map(p -> documentId.apply(p.chunk().row())));
        long hit = got.stream().filter(expected::contains).count();
        recall += expected.isEmpty() ? 0 : (double) hit / expected.size();
        precision += got.isEmpty() ? 0 : (double) hit / got.size();
        questions++;
    }

    private Set<String> patients(java.util.stream.Stream<String> documents) {
        return documents.map(patientOfDocument).filter(Objects::nonNull).collect(Collectors.toSet());
    }

    /** {@code cohort_recall} and {@code cohort_precision}, rounded to four places; empty when no cohort question was scored. */
    public Map<String, Object> figures() {
        Map<String, Object> f = new LinkedHashMap<>();
        if (questions > 0) {
            f.put("cohort_recall", Math.round(recall / questions * 10000) / 10000.0);
            f.put("cohort_precision", Math.round(precision / questions * 10000) / 10000.0);
        }
        return f;
    }
}

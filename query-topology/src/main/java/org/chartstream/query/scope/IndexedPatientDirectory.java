package org.chartstream.query.scope;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.chartstream.core.store.HybridStore;
import org.chartstream.core.store.IndexedPatient;
import org.chartstream.core.store.PatientLabel;
import org.chartstream.core.store.PatientTerms;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.retrieval.PatientScope.PatientCandidate;
import org.chartstream.retrieval.scope.PatientDirectory;

/**
 * The patient directory read from the index itself: the patients of the patient table's rows whose name, number or
 * key shares a word with the text ({@link HybridStore#patientsNamed}), each with the number, name and birth year the
 * ingest labelled its chunks with ({@link PatientLabel}); the chunks' text is never read. Because it is the index's
 * active generation, a patient's update or delete shows at the store commit that applies it, with no copy to keep
 * in step.
 *
 * <p>A patient table without name columns is a normal case: its patients are in the directory by number, and a
 * question names them by it ({@code patient 10014078}). A patient whose chunks carry no label (an index written before
 * chunks carried labels) is not: a question cannot name them, and runs unrestricted as it would for any name the index
 * does not know. A Lucene index of that age is rebuilt from the index log at open.
 */
public final class IndexedPatientDirectory implements PatientDirectory {
    /** Patients asked of the store: more than any name is shared by, in the synthetic data sets (50–500 patients). */
    static final int DEPTH = 50;

    private final HybridStore store;
    private final String patientTable;

    public IndexedPatientDirectory(HybridStore store, String patientTable) {
        this.store = Objects.requireNonNull(store, "store");
        this.patientTable = Objects.requireNonNull(patientTable, "patientTable");
    }

    @Override
    public List<PatientCandidate> mentionedIn(String text) {
        Set<String> words = PatientTerms.of(text);
        if (words.isEmpty()) {
            return List.of();
        }
        List<PatientCandidate> patients = new ArrayList<>();
        for (IndexedPatient p : store.patientsNamed(words, DEPTH, RetrievalFilter.forTables(patientTable))) {
            PatientLabel label = p.label();
            if (label != null && (label.name() != null || label.number() != null)) {
                patients.add(new PatientCandidate(p.patientKey(), label.name(), label.number(), label.birthYear()));
            }
        }
        return patients;
    }
}

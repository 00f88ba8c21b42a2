package org.chartstream.retrieval.scope;

import java.util.List;
import org.chartstream.retrieval.PatientScope.PatientCandidate;

/**
 * The patients the index knows, as a question can name them: by name or by patient number.
 */
@FunctionalInterface
public interface PatientDirectory {
    /** A directory that knows no patient (a corpus without a patient table). */
    PatientDirectory NONE = text -> List.of();

    /**
     * The patients whose name or patient number shares a word with {@code text} (accents and case folded), each
     * once; it may return more than the text names: {@link NamedPatients} decides which of them it names.
     */
    List<PatientCandidate> mentionedIn(String text);
}

package org.chartstream.retrieval;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.chartstream.retrieval.generate.Passage;

/**
 * What a run replies: its outcome, the answer's (or refusal's, or clarification's) text and the passages it may cite.
 *
 * @param extractive       the answer quotes the passages instead of a generated text
 * @param generator        the generator that answered, or would have
 * @param flaggedCitations citation markers of the generated text that name no passage
 * @param completeness     on an answer, how complete its list of records is; empty otherwise
 * @param set              on a whole-set answer, its structured result; empty otherwise
 */
public record Answer(Outcome outcome, String text, boolean extractive, List<Passage> passages, String generator,
                     List<Integer> flaggedCitations, Optional<Completeness> completeness,
                     Optional<SetResult> set) {
    public Answer {
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(text, "text");
        passages = List.copyOf(passages);
        flaggedCitations = List.copyOf(flaggedCitations);
        Objects.requireNonNull(completeness, "completeness");
        Objects.requireNonNull(set, "set");
    }

    /** An answer that is not a whole-set answer. */
    public Answer(Outcome outcome, String text, boolean extractive, List<Passage> passages, String generator,
                  List<Integer> flaggedCitations, Optional<Completeness> completeness) {
        this(outcome, text, extractive, passages, generator, flaggedCitations, completeness, Optional.empty());
    }
}

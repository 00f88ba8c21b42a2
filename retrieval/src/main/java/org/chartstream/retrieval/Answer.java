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
 */
public record Answer(Outcome outcome, String text, boolean extractive, List<Passage> passages, String generator,
                     List<Integer> flaggedCitations, Optional<Completeness> completeness) {
    public Answer {
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(text, "text");
        passages = List.copyOf(passages);
        flaggedCitations = List.copyOf(flaggedCitations);
        Objects.requireNonNull(completeness, "completeness");
    }
}

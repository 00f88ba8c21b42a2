package org.chartstream.retrieval.generate;

import java.util.Objects;
import org.chartstream.core.llm.LlmFailureKind;

/**
 * What generation produced.
 *
 * @param outcome        what kind of reply this is
 * @param answer         the answer text (for {@link Outcome#UNAVAILABLE}: empty)
 * @param citations      the answer's citations checked against the passages
 * @param generator      the audit name of what generated it (model id, or extractive)
 * @param detail         for the audit: why it is refused, extractive or unavailable; never question or record text
 * @param failure        the endpoint failure behind {@link Outcome#UNAVAILABLE}, else {@code null}
 * @param tokensStreamed answer pieces already passed to the token callback (non-zero on {@link Outcome#UNAVAILABLE}
 *                       means the streamed text was partial and must be discarded)
 */
public record GenerationResult(Outcome outcome, String answer, CitationMarkers.Report citations, String generator,
                               String detail, LlmFailureKind failure, int tokensStreamed) {

    public enum Outcome {
        /** The model answered from the passages. */
        ANSWERED,
        /** The model said the passages do not support an answer. */
        REFUSED,
        /** No generation model is configured: the passages themselves, labelled as such. */
        EXTRACTIVE,
        /** A generation model is configured but could not answer: no other answer is given. */
        UNAVAILABLE
    }

    public GenerationResult {
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(answer, "answer");
        Objects.requireNonNull(citations, "citations");
        Objects.requireNonNull(generator, "generator");
        Objects.requireNonNull(detail, "detail");
    }

    /** Outcome, counts and detail only. */
    @Override
    public String toString() {
        return "GenerationResult[" + outcome + ", " + answer.length() + " chars, cited=" + citations.cited()
                + ", outOfRange=" + citations.outOfRange() + ", " + detail + "]";
    }
}

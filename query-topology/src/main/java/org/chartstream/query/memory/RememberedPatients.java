package org.chartstream.query.memory;

import java.util.List;
import org.chartstream.retrieval.QueryPipeline;
import org.chartstream.retrieval.SetResult;
import org.chartstream.retrieval.scope.TurnPatients;

/**
 * The patients a finished turn is remembered with, for the next turn's follow-up: after a complete whole-set answer
 * over patients, that set's patients ({@code wholeSet}: a follow-up about "they" is scoped to exactly them); otherwise
 * the patients {@link TurnPatients} names. A turn about more than {@link #MAX_PATIENTS} patients is remembered with
 * none: part of a set is not the set, and the memory stays one bounded record.
 *
 * @param keys     the patients' keys
 * @param wholeSet {@code keys} is the whole set of a whole-set answer
 */
public record RememberedPatients(List<String> keys, boolean wholeSet) {
    /**
     * The most patients one turn keeps: {@link ConversationMemories#DEFAULT_MAX_TURNS} turns of this many 36-character
     * keys stay under a broker's default record limit of 1 MiB.
     */
    public static final int MAX_PATIENTS = 1000;

    public RememberedPatients {
        keys = List.copyOf(keys);
        if (keys.size() > MAX_PATIENTS) {
            keys = List.of();
            wholeSet = false;
        }
    }

    public static RememberedPatients of(QueryPipeline.Result result) {
        SetResult set = result.answer().set().orElse(null);
        if (set != null && set.complete() && !set.patientKeys().isEmpty()) {
            return new RememberedPatients(set.patientKeys(), true);
        }
        return new RememberedPatients(TurnPatients.of(result.scope(), result.answer().passages()), false);
    }

    /** Whether a whole set of patients was too large to remember. */
    public static boolean setOverCap(QueryPipeline.Result result) {
        return result.answer().set().filter(SetResult::complete).map(s -> s.patientKeys().size() > MAX_PATIENTS).orElse(false);
    }

    /** Sizes only: keys are patient data. */
    @Override
    public String toString() {
        return "RememberedPatients[" + keys.size() + " patients, wholeSet=" + wholeSet + "]";
    }
}

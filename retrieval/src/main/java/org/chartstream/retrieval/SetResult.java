package org.chartstream.retrieval;

import java.util.List;
import java.util.Objects;

/**
 * The structured result of a question answered over an exact row set (a whole-set answer): what was counted, the
 * exact counts, and the patients, values or rows listed. It travels on the reply as fields so an upstream system does
 * not parse text.
 *
 * @param output     what the question asked for
 * @param field      the field values were read from ({@link Output#VALUES}, {@link Output#TOP_VALUES}), else null
 * @param rows       rows in the set, exact
 * @param patients   distinct patients of those rows, exact
 * @param patientsListed the patients listed (each one's number when it has one, else its name), for
 *                   {@link Output#PATIENTS}
 * @param patientKeys the keys of every patient of the set when {@code complete} (what a follow-up about "they" is
 *                   scoped to), else empty
 * @param values     the values listed with their counts, for {@link Output#VALUES} and {@link Output#TOP_VALUES}
 * @param rowIds     the rows listed or cited ({@code RowRef.id}), for {@link Output#ROWS}, {@link Output#LATEST},
 *                   {@link Output#EARLIEST}
 * @param concepts   the concepts (code meanings, drug names) the set was built from, as the answer names them
 * @param complete   whether the lists hold every row or patient of the executed set (nothing cut, nothing unjudged):
 *                   what a follow-up over "they" may be scoped to; the reply's completeness label says whether that
 *                   set is all the question asks for (a set of concepts linked by words is labelled partial)
 */
public record SetResult(Output output, String field, long rows, long patients, List<String> patientsListed,
                        List<String> patientKeys,
                        List<Value> values, List<String> rowIds, List<String> concepts, boolean complete) {

    public enum Output { PATIENTS, ROWS, COUNT, VALUES, TOP_VALUES, LATEST, EARLIEST }

    /** One value of {@link #field} over the set, with its rows and distinct patients. */
    public record Value(String value, long rows, long patients) {
        public Value {
            Objects.requireNonNull(value, "value");
        }

        @Override
        public String toString() {
            return "Value[rows=" + rows + ", patients=" + patients + "]";
        }
    }

    public SetResult {
        Objects.requireNonNull(output, "output");
        patientsListed = List.copyOf(patientsListed);
        patientKeys = List.copyOf(patientKeys);
        values = List.copyOf(values);
        rowIds = List.copyOf(rowIds);
        concepts = List.copyOf(concepts);
    }

    /** Counts only: the lists are patient data. */
    @Override
    public String toString() {
        return "SetResult[" + output + ", rows=" + rows + ", patients=" + patients + ", listed="
                + (patientsListed.size() + values.size() + rowIds.size()) + ", complete=" + complete + "]";
    }
}

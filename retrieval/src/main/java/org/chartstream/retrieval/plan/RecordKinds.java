package org.chartstream.retrieval.plan;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.chartstream.core.binding.TableBinding;
import org.chartstream.core.binding.TableRole;
import org.chartstream.core.store.rowset.FieldValues;

/**
 * The kinds of record a question names by its words ("diagnosed", "prescribed", "procedures", "admission"), and the
 * tables of each kind: a table is of a kind when the words of its binding's {@code concept} start with one of the
 * kind's stems, and an encounter table is of kind admission. Clinical words, not a dataset's names.
 */
public final class RecordKinds {

    /** One kind: the question words that name it and the stems of the binding concepts that are it. */
    public record Kind(String name, Set<String> questionWords, List<String> conceptStems) {
    }

    public static final Kind DIAGNOSIS = new Kind("diagnosis", Set.of("diagnosed", "diagnosis", "diagnoses", "diagnostic",
            "condition", "conditions", "problem", "problems", "disease", "diseases", "disorder", "disorders"),
            List.of("diagnos", "condition", "problem", "disease"));
    public static final Kind PROCEDURE = new Kind("procedure", Set.of("procedure", "procedures", "procedurally",
            "surgery", "surgeries", "surgical", "operation", "operations", "performed", "underwent", "undergone"),
            List.of("procedure", "surger", "operation"));
    public static final Kind MEDICATION = new Kind("medication", Set.of("medication", "medications", "medicine",
            "medicines", "drug", "drugs", "prescribed", "prescription", "prescriptions", "dispensed", "order", "orders",
            "meds"), List.of("medication", "prescription", "drug", "medicine"));
    public static final Kind LAB = new Kind("lab", Set.of("lab", "labs", "laboratory", "result", "results", "level",
            "levels"), List.of("lab", "result", "observation", "measurement"));
    public static final Kind MICROBIOLOGY = new Kind("microbiology", Set.of("culture", "cultures", "microbiology",
            "organism", "organisms", "specimen", "specimens", "grew", "grow", "grown"), List.of("microbiolog", "culture"));
    public static final Kind TRANSFER = new Kind("transfer", Set.of("transfer", "transfers", "transferred", "unit",
            "units", "ward", "wards"), List.of("transfer", "unit", "ward", "bed"));
    public static final Kind ADMISSION = new Kind("admission", Set.of("admission", "admissions", "admitted", "stay",
            "stays", "hospitalization", "hospitalisation", "hospitalizations", "encounter", "encounters", "visit",
            "visits", "discharge", "discharged", "hospital", "hospitalized", "hospitalised", "inpatient"), List.of("admission", "encounter", "visit", "stay"));

    public static final List<Kind> ALL = List.of(DIAGNOSIS, PROCEDURE, MEDICATION, LAB, MICROBIOLOGY, TRANSFER, ADMISSION);

    private RecordKinds() {
    }

    /** The kinds named by the words {@code [from, to)} of the question. */
    public static Set<Kind> named(QuestionWords words, int from, int to) {
        Set<Kind> out = new LinkedHashSet<>();
        for (int i = from; i < to; i++) {
            if (words.role(i) == QuestionWords.Role.KIND) {
                String w = words.word(i);
                ALL.stream().filter(k -> k.questionWords().contains(w)).forEach(out::add);
            }
        }
        return out;
    }

    /** Marks the kind words of the question. */
    public static void mark(QuestionWords words) {
        Set<String> all = new LinkedHashSet<>();
        ALL.forEach(k -> all.addAll(k.questionWords()));
        words.markAll(all, QuestionWords.Role.KIND);
    }

    /** Whether {@code table} holds records of {@code kind}. */
    public static boolean isOf(TableBinding table, Kind kind) {
        if (kind == ADMISSION && table.role() == TableRole.ENCOUNTER) {
            return true;
        }
        if (table.concept() == null || table.role() == TableRole.DICTIONARY) {
            return false;
        }
        return FieldValues.words(table.concept()).stream()
                .anyMatch(w -> kind.conceptStems().stream().anyMatch(w::startsWith));
    }

    /** The kinds of {@code table}, for the answer's words ("diagnosis records"). */
    public static String recordWord(TableBinding table) {
        if (table.concept() != null) {
            return table.concept();
        }
        return switch (table.role()) {
            case PATIENT -> "patient";
            case ENCOUNTER -> "admission";
            default -> table.table().replace('_', ' ');
        };
    }
}

package org.chartstream.app.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.chartstream.datasets.ClinicalDataset;
import org.chartstream.datasets.PatientRow;
import org.chartstream.schemas.Citation;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;

/**
 * The demo's questions about which patient is meant, derived from the generated data: a follow-up ("What about her
 * medications?") after a turn naming the patient, in the same conversation, and a first name several patients
 * share, which must get a clarification listing them.
 */
public final class DemoConversations {
    /**
     * One demo exchange.
     *
     * @param firstTurn     asked before {@code text} in the same conversation; null for a single question
     * @param answeringRows rows ({@code table:row_key}) of which the answer must cite at least one
     * @param allowedRows   the only rows it may cite (the patient's); empty together with {@code answeringRows}: a
     *                      clarification listing several patients is expected
     */
    public record Exchange(String kind, String firstTurn, String text, String expectation, Set<String> answeringRows,
                           Set<String> allowedRows) {

        /** Whether the final reply event is what this exchange expects. */
        public boolean met(ReplyEvent last) {
            if (answeringRows.isEmpty()) {
                return last.getType() == ReplyType.CLARIFY && last.getCandidates().size() > 1 && last.getCitations().isEmpty();
            }
            List<String> cited = last.getCitations().stream().map(DemoConversations::row).toList();
            return last.getType() == ReplyType.ANSWER && cited.stream().anyMatch(answeringRows::contains)
                    && allowedRows.containsAll(cited);
        }
    }

    private DemoConversations() {
    }

    public static List<Exchange> from(ClinicalDataset data) {
        List<Exchange> exchanges = new ArrayList<>();
        List<PatientRow> withNotes = data.patientsWithNotes();
        withNotes.stream().skip(Math.min(1, withNotes.size()))
                .filter(p -> !data.conditionsOf(p.patientId()).isEmpty() && !data.medicationsOf(p.patientId()).isEmpty())
                .findFirst().ifPresent(p -> exchanges.add(new Exchange("follow-up",
                        "What conditions does " + p.fullName() + " have?", "What about " + possessive(p) + " medications?",
                        "medications of " + p.fullName() + " and no other patient's records",
                        data.medicationsOf(p.patientId()).stream().map(m -> "medications:" + m.medicationId())
                                .collect(Collectors.toCollection(TreeSet::new)), rowsOf(data, p))));
        Map<String, Long> firstNames = data.patients().stream()
                .collect(Collectors.groupingBy(PatientRow::firstName, TreeMap::new, Collectors.counting()));
        firstNames.entrySet().stream().filter(e -> e.getValue() > 1).findFirst().ifPresent(e -> exchanges.add(new Exchange(
                "name several patients share", null, "What medications does " + e.getKey() + " take?",
                "a clarification listing the " + e.getValue() + " patients named " + e.getKey(), Set.of(), Set.of())));
        return exchanges;
    }

    private static Set<String> rowsOf(ClinicalDataset data, PatientRow p) {
        Set<String> rows = new TreeSet<>(Set.of("patients:" + p.patientId()));
        data.encountersOf(p.patientId()).forEach(e -> rows.add("encounters:" + e.encounterId()));
        data.conditionsOf(p.patientId()).forEach(c -> rows.add("conditions:" + c.conditionId()));
        data.medicationsOf(p.patientId()).forEach(m -> rows.add("medications:" + m.medicationId()));
        data.notesOf(p.patientId()).forEach(n -> rows.add("clinical_notes:" + n.noteId()));
        return rows;
    }

    private static String row(Citation c) {
        return c.getTableName() + ":" + c.getRowKey();
    }

    private static String possessive(PatientRow p) {
        return "female".equals(p.gender()) ? "her" : "male".equals(p.gender()) ? "his" : "their";
    }
}

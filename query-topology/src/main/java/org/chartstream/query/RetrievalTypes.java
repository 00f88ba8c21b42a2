package org.chartstream.query;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.retrieval.Completeness;
import org.chartstream.retrieval.Outcome;
import org.chartstream.retrieval.PatientScope;
import org.chartstream.retrieval.SearchMode;
import org.chartstream.retrieval.generate.Passage;
import org.chartstream.retrieval.rewrite.ConversationHistory;
import org.chartstream.retrieval.rewrite.RecentTurn;
import org.chartstream.schemas.AnswerCompleteness;
import org.chartstream.schemas.Citation;
import org.chartstream.schemas.CohortSummary;
import org.chartstream.schemas.ConversationMemory;
import org.chartstream.schemas.PatientCandidate;
import org.chartstream.schemas.ReplyType;
import org.chartstream.schemas.RetrievalFilterSpec;

/** The one place the Avro wire types meet the retrieval module's own: requests in, outcomes out. */
public final class RetrievalTypes {
    private RetrievalTypes() {
    }

    public static SearchMode mode(org.chartstream.schemas.SearchMode wire) {
        return switch (wire) {
            case HYBRID -> SearchMode.HYBRID;
            case VECTOR -> SearchMode.VECTOR;
            case LEXICAL -> SearchMode.LEXICAL;
        };
    }

    public static ReplyType replyType(Outcome outcome) {
        return switch (outcome) {
            case ANSWER -> ReplyType.ANSWER;
            case REFUSED -> ReplyType.REFUSED;
            case UNAVAILABLE -> ReplyType.UNAVAILABLE;
            case CLARIFY -> ReplyType.CLARIFY;
        };
    }

    /** {@code null} (the wire's "not set") for a run that did not answer. */
    public static AnswerCompleteness completeness(Optional<Completeness> answered) {
        if (answered.isEmpty()) {
            return null;
        }
        return switch (answered.get().kind()) {
            case COMPLETE -> AnswerCompleteness.COMPLETE;
            case PARTIAL -> AnswerCompleteness.PARTIAL;
            case MOST_RELEVANT -> AnswerCompleteness.MOST_RELEVANT;
        };
    }

    /** {@code null} unless the answer lists the rows matching an exact anchor. */
    public static CohortSummary cohort(Optional<Completeness> answered) {
        if (answered.isEmpty() || answered.get().cohort() == null) {
            return null;
        }
        Completeness.CohortSummary c = answered.get().cohort();
        return CohortSummary.newBuilder().setAnchor(c.anchor()).setPatients(c.patients()).setRows(c.rows())
                .setCap(c.cap()).build();
    }

    public static List<PatientCandidate> candidates(PatientScope scope) {
        if (scope == null) {
            return List.of();
        }
        return scope.candidates().stream().map(c -> PatientCandidate.newBuilder().setPatientKey(c.patientKey())
                .setName(c.display()).setPatientNumber(c.patientNumber()).setBirthYear(c.birthYear()).build()).toList();
    }

    /** The stored conversation as the rewrite stage reads it (continuity only, never cited); empty for a first turn. */
    public static ConversationHistory history(ConversationMemory memory) {
        if (memory == null) {
            return ConversationHistory.EMPTY;
        }
        return new ConversationHistory(memory.getSummary(),
                memory.getTurns().stream().map(t -> new RecentTurn(t.getQuestion(), t.getAnswer(), t.getPatientKeys(), t.getWholeSet())).toList());
    }

    public static RetrievalFilter filter(RetrievalFilterSpec spec) {
        if (spec == null) {
            return RetrievalFilter.NONE;
        }
        return new RetrievalFilter(Set.copyOf(spec.getTables()), Set.copyOf(spec.getSourceIds()),
                Set.copyOf(spec.getRowKeys()), spec.getPatient());
    }

    /** The passages an answer may cite, as the reply lists them (the chunk each points at, the text quoted). */
    public static List<Citation> citations(List<Passage> passages) {
        List<Citation> out = new ArrayList<>(passages.size());
        for (Passage p : passages) {
            out.add(Citation.newBuilder().setIndex(p.index()).setChunkId(p.chunk().chunkId())
                    .setSourceId(p.chunk().row().sourceId()).setTableName(p.chunk().row().table())
                    .setRowKey(p.chunk().row().rowKey()).setGeneration(p.chunk().generation())
                    .setSourcePosition(p.chunk().sourcePosition()).setScore(p.score()).setText(p.text()).build());
        }
        return out;
    }
}

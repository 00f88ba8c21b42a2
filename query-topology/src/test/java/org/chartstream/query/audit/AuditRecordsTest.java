package org.chartstream.query.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.chartstream.core.store.ChunkFixture;
import org.chartstream.core.store.SearchHit;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.retrieval.Answer;
import org.chartstream.retrieval.Candidate;
import org.chartstream.retrieval.Completeness;
import org.chartstream.retrieval.Outcome;
import org.chartstream.retrieval.PatientScope;
import org.chartstream.retrieval.QueryPipeline;
import org.chartstream.retrieval.RetrievalTrace;
import org.chartstream.retrieval.SetResult;
import org.chartstream.retrieval.gate.QuestionScope;
import org.chartstream.retrieval.gate.ScopedGateDecision;
import org.chartstream.retrieval.generate.Passage;
import org.chartstream.retrieval.rerank.AdaptiveRerankPrefix;
import org.chartstream.retrieval.rerank.RerankOutcome;
import org.chartstream.retrieval.search.SideResults;
import org.chartstream.schemas.AnswerAudit;
import org.chartstream.schemas.CitedChunk;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.ScoredId;
import org.junit.jupiter.api.Test;

class AuditRecordsTest {
    private static final StoredChunk NOTE = ChunkFixture.of("ehr", "notes", "7").index(1, 3).text("plan: stress test").build();
    private static final StoredChunk CONDITION = ChunkFixture.of("ehr", "conditions", "12").build();

    @Test
    void contentHashIsTheHexSha256OfTheUtf8Text() {
        assertThat(AuditRecords.contentSha256("abc")).isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assertThat(AuditRecords.contentSha256("Zolmitriptan 2.5 MG")).isNotEqualTo(AuditRecords.contentSha256("Zolmitriptan 5 MG"));
    }

    @Test
    void recordsEachStagesCandidatesByChunkIdWithThatStagesScore() {
        Candidate note = Candidate.lexicalHit(NOTE, 9.5, 1).withFused(0.6, 1);
        Candidate condition = Candidate.vectorHit(CONDITION, 0.7, 1).withFused(0.4, 2);
        SideResults first = new SideResults(List.of(new SearchHit(CONDITION, 0.7, 1)), List.of(new SearchHit(NOTE, 9.5, 1)));
        SideResults second = new SideResults(List.of(new SearchHit(NOTE, 0.5, 1)), List.of());
        Completeness complete = new Completeness(Completeness.Kind.COMPLETE, "every matching row",
                new Completeness.CohortSummary("E11.9", 2, 3, 500));
        Answer answer = new Answer(Outcome.ANSWER, "answer [1]", false, List.of(new Passage(1, NOTE, 0.82, NOTE.text())), "llm",
                List.of(), Optional.of(complete));
        RerankOutcome rerank = new RerankOutcome(List.of(condition.withRerankScore(0.82), note.withRerankScore(0.31)),
                new AdaptiveRerankPrefix.Cut(2, "all 2 candidates"), "cross-encoder m", "cross-encoder-sigmoid");
        ScopedGateDecision gate = new ScopedGateDecision(true, QuestionScope.POINTED, "none", "cross-encoder-sigmoid", 0.82, 0.3, 2, "ok");
        QueryPipeline.Result result = new QueryPipeline.Result(answer, new RetrievalTrace.Ranked(List.of("q", "q2"), "rewritten",
                List.of(first, second), List.of(note, condition), rerank, gate), new PatientScope(PatientScope.Source.INHERITED, "p-1",
                List.of()), Map.of("total", 12L));
        QueryRequest request = QueryRequest.newBuilder().setRequestId("r1").setConversationId("c1").setUserId("u1")
                .setQuestion("q").setTopK(6).build();

        AnswerAudit audit = AuditRecords.of(request, result, "minilm");

        assertThat(audit.getVectorHits()).containsExactly(new ScoredId(CONDITION.chunkId(), 0.7),
                new ScoredId("q1|" + NOTE.chunkId(), 0.5));
        assertThat(audit.getLexicalHits()).containsExactly(new ScoredId(NOTE.chunkId(), 9.5));
        assertThat(audit.getFused()).containsExactly(new ScoredId(NOTE.chunkId(), 0.6), new ScoredId(CONDITION.chunkId(), 0.4));
        assertThat(audit.getRerank()).containsExactly(new ScoredId(CONDITION.chunkId(), 0.82), new ScoredId(NOTE.chunkId(), 0.31));
        assertThat(audit.getCited()).containsExactly(new CitedChunk(NOTE.chunkId(), NOTE.generation(), NOTE.sourcePosition(),
                AuditRecords.contentSha256(NOTE.text())));
        assertThat(audit.getPatientScope()).isEqualTo("inherited: patient p-1");
        assertThat(audit.getCompleteness()).isEqualTo(org.chartstream.schemas.AnswerCompleteness.COMPLETE);
        assertThat(audit.getCohort().getRows()).isEqualTo(3);
    }

    @Test
    void aCohortAnswerIsAuditedByItsListedRowsAndExactTermDecisionWithNothingFusedOrScored() {
        Completeness complete = new Completeness(Completeness.Kind.COMPLETE, "every matching row",
                new Completeness.CohortSummary("E11.9", 1, 1, 500));
        Answer answer = new Answer(Outcome.ANSWER, "Complete list", true, List.of(new Passage(1, CONDITION, 1.0, CONDITION.text())),
                RetrievalTrace.Cohort.LOOKUP, List.of(), Optional.of(complete));
        RetrievalTrace.Cohort trace = new RetrievalTrace.Cohort(true, "every listed row holds the question's anchor");
        QueryRequest request = QueryRequest.newBuilder().setRequestId("r2").setConversationId("c1").setUserId("u1")
                .setQuestion("q").setTopK(6).build();

        AnswerAudit audit = AuditRecords.of(request, new QueryPipeline.Result(answer, trace, PatientScope.NONE, Map.of()), "minilm");

        assertThat(audit.getFused()).isEmpty();
        assertThat(audit.getRerank()).isEmpty();
        assertThat(audit.getVectorHits()).isEmpty();
        assertThat(audit.getCited()).extracting(CitedChunk::getChunkId).containsExactly(CONDITION.chunkId());
        assertThat(audit.getReranker()).isEqualTo(RetrievalTrace.Cohort.LOOKUP);
        assertThat(audit.getGateDecision()).startsWith("answer (exact-term").isEqualTo(trace.gateDescription());
        assertThat(audit.getCohort().getAnchor()).isEqualTo("E11.9");
    }

    @Test
    void aWholeSetAnswerIsAuditedByItsCountsRowIdsAndConceptsWithoutItsValues() {
        SetResult set = new SetResult(SetResult.Output.VALUES, "route", 21, 17, List.of(), List.of("p1"),
                List.of(new SetResult.Value("Oral tablet route", 20, 16)), List.of(CONDITION.row().id()), List.of("amoxicillin"), true);
        Answer answer = new Answer(Outcome.ANSWER, "route: Oral tablet route", true, List.of(new Passage(1, CONDITION, 1.0, CONDITION.text())),
                RetrievalTrace.Cohort.LOOKUP, List.of(), Optional.of(Completeness.MOST_RELEVANT), Optional.of(set));
        QueryRequest request = QueryRequest.newBuilder().setRequestId("r3").setConversationId("c1").setUserId("u1")
                .setQuestion("q").setTopK(6).build();

        AnswerAudit audit = AuditRecords.of(request, new QueryPipeline.Result(answer,
                new RetrievalTrace.Cohort(true, "every listed row holds the question's anchor"), PatientScope.NONE, Map.of()), "minilm");

        assertThat(audit.getSetResult().getRows()).isEqualTo(21);
        assertThat(audit.getSetResult().getPatients()).isEqualTo(17);
        assertThat(audit.getSetResult().getValuesListed()).isEqualTo(1);
        assertThat(audit.getSetResult().getRowIds()).containsExactly(CONDITION.row().id());
        assertThat(audit.getSetResult().getConcepts()).containsExactly("amoxicillin");
        assertThat(audit.toString()).doesNotContain("Oral tablet route");
    }

    @Test
    void anOrdinaryAnswerIsAuditedWithoutASetResult() {
        Answer answer = new Answer(Outcome.ANSWER, "answer", true, List.of(), RetrievalTrace.Cohort.LOOKUP, List.of(),
                Optional.of(Completeness.MOST_RELEVANT));
        QueryRequest request = QueryRequest.newBuilder().setRequestId("r4").setConversationId("c1").setUserId("u1")
                .setQuestion("q").setTopK(6).build();

        AnswerAudit audit = AuditRecords.of(request, new QueryPipeline.Result(answer,
                new RetrievalTrace.Cohort(true, "every listed row holds the question's anchor"), PatientScope.NONE, Map.of()), "minilm");

        assertThat(audit.getSetResult()).isNull();
    }
}

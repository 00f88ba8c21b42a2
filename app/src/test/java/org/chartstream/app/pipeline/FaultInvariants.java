package org.chartstream.app.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.chartstream.client.QueryClient;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.SearchHit;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.core.store.TableRef;
import org.chartstream.runtime.PipelineRuntime;
import org.chartstream.schemas.Citation;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;

/**
 * What must hold after every fault, checked on the running pipeline once the writers have stopped: every source
 * row is searchable exactly once with its current content, no deleted row is searchable, readers see one whole
 * generation of the table, and a question through the real query path is answered with citations that each
 * resolve to a stored chunk with its provenance (source, table, row key, generation, source position).
 */
final class FaultInvariants {
    static final String QUESTION = "Which notes mention a persistent dry cough?";

    private FaultInvariants() {
    }

    /** Asserts all of the above; returns the answer's citations (for the scenario's log). */
    static List<Citation> assertHold(PipelineRuntime runtime, String sourceId, IndexConvergence.ConnectionSupplier source,
                                     List<Integer> goneIds, long generation, String replyTopic, Duration timeout) throws Exception {
        IndexConvergence.await(runtime, sourceId, source, timeout);
        assertThat(IndexConvergence.stillSearchable(runtime, goneIds)).as("deleted or re-keyed rows still searchable").isEmpty();
        TableRef table = new TableRef(sourceId, NotesTable.TABLE);
        assertOneWholeGeneration(runtime, table, source, generation);
        return assertCitationsResolve(runtime, table, replyTopic, QUESTION, Duration.ofSeconds(60));
    }

    private static void assertOneWholeGeneration(PipelineRuntime runtime, TableRef table,
                                                 IndexConvergence.ConnectionSupplier source, long generation) throws Exception {
        assertThat(runtime.store().activeGenerations()).as("active generation").containsEntry(table, generation);
        Map<String, Map<String, String>> rows;
        try (Connection c = source.open()) {
            rows = NotesTable.rows(c);
        }
        // every title carries "chartnote": a lexical search for it returns every visible chunk of the table
        List<SearchHit> all = runtime.store().lexicalSearch("chartnote", 4 * rows.size() + 50, RetrievalFilter.forTables(table.table()));
        assertThat(all.stream().map(h -> h.chunk().generation()).collect(Collectors.toSet()))
                .as("generations a reader sees").containsExactly(generation);
        Set<String> visibleRows = all.stream().map(h -> h.chunk().row().rowKey()).collect(Collectors.toSet());
        assertThat(visibleRows).as("rows a reader sees").isEqualTo(rows.keySet());
        for (String key : rows.keySet()) {
            List<StoredChunk> chunks = runtime.store().rowChunks(new RowRef(table, key));
            assertThat(chunks).as("chunks of row %s", key).isNotEmpty()
                    .allSatisfy(c -> assertThat(c.generation()).isEqualTo(generation))
                    .extracting(StoredChunk::chunkIndex).doesNotHaveDuplicates();
        }
    }

    /** Asks through the request topic and checks every citation against the store. */
    static List<Citation> assertCitationsResolve(PipelineRuntime runtime, TableRef table, String replyTopic, String question,
                                                 Duration timeout) {
        List<ReplyEvent> events;
        try (QueryClient client = new QueryClient(runtime.bootstrapServers(), replyTopic)) {
            events = client.ask(request(question), timeout, e -> { });
        }
        ReplyEvent last = events.get(events.size() - 1);
        assertThat(last.getType()).as("final reply (error: %s)", last.getError()).isEqualTo(ReplyType.ANSWER);
        assertThat(last.getCitations()).as("the answer cites the notes").isNotEmpty();
        for (Citation citation : last.getCitations()) {
            assertThat(citation.getSourceId()).isEqualTo(table.sourceId());
            assertThat(citation.getTableName()).isEqualTo(table.table());
            List<StoredChunk> chunks = runtime.store().rowChunks(new RowRef(table, citation.getRowKey()));
            StoredChunk stored = chunks.stream().filter(c -> c.chunkId().equals(citation.getChunkId())).findFirst()
                    .orElseThrow(() -> new AssertionError("citation " + citation.getChunkId() + " resolves to no stored chunk"));
            assertThat(citation.getGeneration()).as("generation of %s", citation.getChunkId()).isEqualTo(stored.generation());
            assertThat(citation.getSourcePosition()).as("source position of %s", citation.getChunkId())
                    .isEqualTo(stored.sourcePosition()).isNotBlank();
        }
        return last.getCitations();
    }

    static QueryRequest request(String question) {
        return QueryRequest.newBuilder().setRequestId(UUID.randomUUID().toString()).setConversationId("fault-" + UUID.randomUUID())
                .setUserId("it").setQuestion(question).setTopK(3).build();
    }
}

package org.chartstream.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.kafka.common.errors.SerializationException;
import org.chartstream.schemas.serde.AvroSerde;
import org.chartstream.schemas.serde.KnownSchemas;
import org.junit.jupiter.api.Test;

class AvroSerdeTest {

    private final AvroSerde<QueryRequest> requests = AvroSerde.of(QueryRequest.class);

    @Test
    void roundTripsEveryPayloadType() {
        QueryRequest q = QueryRequest.newBuilder().setRequestId("r1").setConversationId("c1").setUserId("u1")
                .setQuestion("which patients take metformin?").setMode(SearchMode.LEXICAL).setTopK(4)
                .setFilter(RetrievalFilterSpec.newBuilder().setTables(List.of("medications")).setPatient("MRN-000001").build())
                .setDeadlineMs(123L).build();
        assertThat(requests.deserialize("t", requests.serialize("t", q))).isEqualTo(q);

        ChunkRecord chunk = ChunkRecord.newBuilder().setChunkId("ehr:notes:7:0:3").setSourceId("ehr").setTableName("notes")
                .setRowKey("7").setChunkIndex(0).setChunkCount(1).setGeneration(3).setText("text")
                .setVector(List.of(0.5f, -0.5f)).setSourcePosition("0/16B3748").setCommitTsMs(1L).setModelId("m").setDimension(2).build();
        IndexEvent event = IndexEvent.newBuilder().setKind(IndexEventKind.UPSERT_ROW).setSourceId("ehr").setTableName("notes")
                .setRowKey("7").setGeneration(3).setChunks(List.of(chunk)).build();
        AvroSerde<IndexEvent> events = AvroSerde.of(IndexEvent.class);
        assertThat(events.deserialize("t", events.serialize("t", event))).isEqualTo(event);
    }

    @Test
    void usesSingleObjectEncodingHeader() {
        QueryRequest q = QueryRequest.newBuilder().setRequestId("r").setConversationId("c").setUserId("u").setQuestion("q").build();
        byte[] bytes = requests.serialize("t", q);
        assertThat(bytes[0]).isEqualTo((byte) 0xC3);
        assertThat(bytes[1]).isEqualTo((byte) 0x01);
    }

    @Test
    void readsDataWrittenWithTheOlderSchemaThroughTheNewerReader() throws Exception {
        Schema v1;
        try (InputStream in = getClass().getResourceAsStream("/avro-history/QueryRequest-v1.avsc")) {
            v1 = new Schema.Parser().parse(in);
        }
        assertThat(v1.getField("filter")).isNull();
        GenericRecord old = new GenericData.Record(v1);
        old.put("request_id", "r-old");
        old.put("conversation_id", "c-old");
        old.put("user_id", "u-old");
        old.put("question", "an old question");
        old.put("mode", new GenericData.EnumSymbol(v1.getField("mode").schema(), "VECTOR"));
        old.put("top_k", 3);
        ByteBuffer written = new BinaryMessageEncoder<GenericRecord>(GenericData.get(), v1).encode(old);
        byte[] bytes = new byte[written.remaining()];
        written.get(bytes);

        QueryRequest read = requests.deserialize("chartstream.requests", bytes);

        assertThat(read.getRequestId()).isEqualTo("r-old");
        assertThat(read.getMode()).isEqualTo(SearchMode.VECTOR);
        assertThat(read.getTopK()).isEqualTo(3);
        assertThat(read.getFilter()).isNull();
        assertThat(read.getDeadlineMs()).isNull();
    }

    @Test
    void readsAuditRecordsWrittenBeforeCitedChunksHadAContentHash() throws Exception {
        Schema v1;
        try (InputStream in = getClass().getResourceAsStream("/avro-history/AnswerAudit-v1.avsc")) {
            v1 = new Schema.Parser().parse(in);
        }
        Schema citedV1 = v1.getField("cited").schema().getElementType();
        assertThat(citedV1.getField("content_sha256")).isNull();
        GenericRecord cited = new org.apache.avro.generic.GenericRecordBuilder(citedV1).set("chunk_id", "ehr:medications:1:0:2")
                .set("generation", 2L).set("source_position", "lsn:9").build();
        GenericRecord old = new org.apache.avro.generic.GenericRecordBuilder(v1).set("request_id", "r-old").set("conversation_id", "c")
                .set("user_id", "u").set("ts_ms", 5L).set("outcome", new GenericData.EnumSymbol(v1.getField("outcome").schema(), "ANSWER"))
                .set("cited", java.util.List.of(cited)).set("embedding_model", "m").build();
        ByteBuffer written = new BinaryMessageEncoder<GenericRecord>(GenericData.get(), v1).encode(old);
        byte[] bytes = new byte[written.remaining()];
        written.get(bytes);

        AnswerAudit read = AvroSerde.of(AnswerAudit.class).deserialize("chartstream.audit", bytes);
        assertThat(read.getRequestId()).isEqualTo("r-old");
        assertThat(read.getCited().get(0).getChunkId()).isEqualTo("ehr:medications:1:0:2");
        assertThat(read.getCited().get(0).getContentSha256()).isEmpty();
    }

    @Test
    void readsReplyEventsWrittenBeforeTimeoutExistedThroughTheNewerReader() throws Exception {
        Schema v1 = history("ReplyEvent-v1.avsc");
        assertThat(v1.getField("type").schema().getEnumSymbols()).doesNotContain("TIMEOUT");
        GenericRecord old = new org.apache.avro.generic.GenericRecordBuilder(v1).set("request_id", "r-old").set("seq", 2)
                .set("type", new GenericData.EnumSymbol(v1.getField("type").schema(), "REFUSED")).set("ts_ms", 9L).build();

        ReplyEvent read = AvroSerde.of(ReplyEvent.class).deserialize("chartstream.replies", encode(v1, old));

        assertThat(read.getRequestId()).isEqualTo("r-old");
        assertThat(read.getType()).isEqualTo(ReplyType.REFUSED);
        assertThat(read.getCitations()).isEmpty();
    }

    @Test
    void readsAuditRecordsWrittenBeforeTimeoutExistedThroughTheNewerReader() throws Exception {
        Schema v2 = history("AnswerAudit-v2.avsc");
        assertThat(v2.getField("outcome").schema().getEnumSymbols()).doesNotContain("TIMEOUT");
        GenericRecord old = new org.apache.avro.generic.GenericRecordBuilder(v2).set("request_id", "r-v2").set("conversation_id", "c")
                .set("user_id", "u").set("ts_ms", 5L).set("outcome", new GenericData.EnumSymbol(v2.getField("outcome").schema(), "BUSY"))
                .set("embedding_model", "m").build();

        AnswerAudit read = AvroSerde.of(AnswerAudit.class).deserialize("chartstream.audit", encode(v2, old));

        assertThat(read.getRequestId()).isEqualTo("r-v2");
        assertThat(read.getOutcome()).isEqualTo(ReplyType.BUSY);
    }

    @Test
    void readsVersionTwoReplyEventsWithoutCompletenessOrCandidates() throws Exception {
        Schema v2 = history("ReplyEvent-v2.avsc");
        assertThat(v2.getField("completeness")).isNull();
        GenericRecord old = new org.apache.avro.generic.GenericRecordBuilder(v2).set("request_id", "r-v2").set("seq", 3)
                .set("type", new GenericData.EnumSymbol(v2.getField("type").schema(), "ANSWER")).set("ts_ms", 7L).build();

        ReplyEvent read = AvroSerde.of(ReplyEvent.class).deserialize("chartstream.replies", encode(v2, old));

        assertThat(read.getType()).isEqualTo(ReplyType.ANSWER);
        assertThat(read.getCompleteness()).isNull();
        assertThat(read.getCohort()).isNull();
        assertThat(read.getCandidates()).isEmpty();
    }

    @Test
    void readsRememberedRequestIdsWhoseOutcomeWasWrittenAsAVersionTwoReplyEvent() throws Exception {
        Schema v1 = history("RequestIdEntry-v1.avsc");
        Schema replyV2 = v1.getField("outcome").schema().getTypes().get(1);
        assertThat(replyV2.getField("candidates")).isNull();
        GenericRecord outcome = new org.apache.avro.generic.GenericRecordBuilder(replyV2).set("request_id", "r-old").set("seq", 1)
                .set("type", new GenericData.EnumSymbol(replyV2.getField("type").schema(), "REFUSED")).set("ts_ms", 2L).build();
        GenericRecord old = new org.apache.avro.generic.GenericRecordBuilder(v1).set("fingerprint", "f").set("first_seen_ms", 1L)
                .set("outcome", outcome).build();

        RequestIdEntry read = AvroSerde.of(RequestIdEntry.class).deserialize("request-ids", encode(v1, old));

        assertThat(read.getOutcome().getType()).isEqualTo(ReplyType.REFUSED);
        assertThat(read.getOutcome().getCandidates()).isEmpty();
    }

    @Test
    void readsVersionOneConversationMemoriesWhoseTurnsHaveNoPatients() throws Exception {
        Schema v1 = history("ConversationMemory-v1.avsc");
        Schema turnV1 = v1.getField("turns").schema().getElementType();
        assertThat(turnV1.getField("patient_keys")).isNull();
        GenericRecord turn = new org.apache.avro.generic.GenericRecordBuilder(turnV1).set("question", "q").set("answer", "a")
                .set("ts_ms", 4L).build();
        GenericRecord old = new org.apache.avro.generic.GenericRecordBuilder(v1).set("conversation_id", "c").set("user_id", "u")
                .set("turns", List.of(turn)).build();

        ConversationMemory read = AvroSerde.of(ConversationMemory.class).deserialize("memory", encode(v1, old));

        assertThat(read.getTurns()).hasSize(1);
        assertThat(read.getTurns().get(0).getQuestion()).isEqualTo("q");
        assertThat(read.getTurns().get(0).getPatientKeys()).isEmpty();
    }

    @Test
    void readsVersionOnePendingRequestsWithoutAnArrivalOffset() throws Exception {
        Schema v1 = history("PendingRequest-v1.avsc");
        assertThat(v1.getField("arrival_offset")).isNull();
        GenericRecord request = new org.apache.avro.generic.GenericRecordBuilder(v1.getField("request").schema())
                .set("request_id", "r").set("conversation_id", "c").set("user_id", "u").set("question", "q").build();
        GenericRecord old = new org.apache.avro.generic.GenericRecordBuilder(v1).set("request", request)
                .set("reply_to", "chartstream.replies").set("received_ts_ms", 7L).set("next_seq", 2).build();

        PendingRequest read = AvroSerde.of(PendingRequest.class).deserialize("pending", encode(v1, old));

        assertThat(read.getRequest().getRequestId()).isEqualTo("r");
        assertThat(read.getReceivedTsMs()).isEqualTo(7L);
        assertThat(read.getArrivalOffset()).as("unknown: ordered before every entry that has one").isEqualTo(-1L);
    }

    @Test
    void aConversationTurnKeepsItsPatients() {
        ConversationMemory memory = ConversationMemory.newBuilder().setConversationId("c").setUserId("u")
                .setTurns(List.of(ConversationTurn.newBuilder().setQuestion("q").setAnswer("a").setTsMs(1L)
                        .setPatientKeys(List.of("MRN-000007")).build())).build();
        AvroSerde<ConversationMemory> serde = AvroSerde.of(ConversationMemory.class);

        assertThat(serde.deserialize("t", serde.serialize("t", memory))).isEqualTo(memory);
    }

    @Test
    void aClarificationAndACompleteCohortAnswerRoundTrip() throws Exception {
        ReplyEvent clarify = ReplyEvent.newBuilder().setRequestId("r").setSeq(1).setType(ReplyType.CLARIFY).setTsMs(3L)
                .setCandidates(java.util.List.of(PatientCandidate.newBuilder().setPatientKey("p1").setName("A B")
                        .setPatientNumber("7").setBirthYear(1970).build())).build();
        ReplyEvent cohort = ReplyEvent.newBuilder().setRequestId("r2").setSeq(2).setType(ReplyType.ANSWER).setTsMs(4L)
                .setCompleteness(AnswerCompleteness.COMPLETE).setCompletenessReason("every matching row")
                .setCohort(CohortSummary.newBuilder().setAnchor("E11.9").setPatients(5).setRows(6).setCap(500).build()).build();
        AvroSerde<ReplyEvent> serde = AvroSerde.of(ReplyEvent.class);

        assertThat(serde.deserialize("t", serde.serialize("t", clarify))).isEqualTo(clarify);
        assertThat(serde.deserialize("t", serde.serialize("t", cohort))).isEqualTo(cohort);
    }

    @Test
    void aTimeoutRoundTripsAndAReplyTypeThisReaderDoesNotKnowReadsAsError() throws Exception {
        ReplyEvent timeout = ReplyEvent.newBuilder().setRequestId("r").setSeq(1).setType(ReplyType.TIMEOUT)
                .setError("field 'deadline_ms' passed").setTsMs(3L).build();
        AvroSerde<ReplyEvent> serde = AvroSerde.of(ReplyEvent.class);
        assertThat(serde.deserialize("t", serde.serialize("t", timeout))).isEqualTo(timeout);

        // a later writer with a symbol this version does not have: the enum default of this version resolves it
        Schema later = new Schema.Parser().parse(ReplyEvent.getClassSchema().toString().replace("\"CLARIFY\"]", "\"CLARIFY\",\"CANCELLED\"]"));
        assertThat(later.getField("type").schema().getEnumSymbols()).endsWith("CANCELLED");
        GenericRecord written = new org.apache.avro.generic.GenericRecordBuilder(later).set("request_id", "r-later").set("seq", 4)
                .set("type", new GenericData.EnumSymbol(later.getField("type").schema(), "CANCELLED")).set("ts_ms", 1L).build();
        org.apache.avro.message.BinaryMessageDecoder<ReplyEvent> reader = ReplyEvent.createDecoder(KnownSchemas.store());
        reader.addSchema(later);

        ReplyEvent read = reader.decode(encode(later, written));

        assertThat(read.getRequestId()).isEqualTo("r-later");
        assertThat(read.getType()).isEqualTo(ReplyType.ERROR);
    }

    private static Schema history(String file) throws java.io.IOException {
        try (InputStream in = AvroSerdeTest.class.getResourceAsStream("/avro-history/" + file)) {
            return new Schema.Parser().parse(in);
        }
    }

    private static byte[] encode(Schema writer, GenericRecord record) throws java.io.IOException {
        ByteBuffer written = new BinaryMessageEncoder<GenericRecord>(GenericData.get(), writer).encode(record);
        byte[] bytes = new byte[written.remaining()];
        written.get(bytes);
        return bytes;
    }

    @Test
    void rejectsBytesThatAreNotTheType() {
        assertThatThrownBy(() -> requests.deserialize("chartstream.requests", "{\"question\":\"hi\"}".getBytes()))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("not a QueryRequest");
        assertThat(requests.tryDeserialize(new byte[] {(byte) 0xC3, 0x01, 1, 2})).isNull();
    }
}

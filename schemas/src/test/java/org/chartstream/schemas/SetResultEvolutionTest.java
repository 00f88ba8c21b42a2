package org.chartstream.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.GenericRecordBuilder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.chartstream.schemas.serde.AvroSerde;
import org.chartstream.schemas.serde.KnownSchemas;
import org.junit.jupiter.api.Test;

/**
 * The reply gained a whole-set answer's structured result (v4), the audit record its summary (v5), and a conversation
 * turn whether its patients are a whole set (v3): records written before read with the defaults through the newer
 * reader, and a current record resolves against the older schema (a reader that does not know the fields skips them).
 */
class SetResultEvolutionTest {
    private static final AvroSerde<ReplyEvent> REPLIES = AvroSerde.of(ReplyEvent.class);

    @Test
    void aReplyWrittenBeforeSetResultsReadsWithoutOneThroughTheNewerReader() throws IOException {
        Schema v3 = history("ReplyEvent-v3.avsc");
        assertThat(v3.getField("set_result")).isNull();
        GenericRecord old = new GenericRecordBuilder(v3).set("request_id", "r-v3").set("seq", 2)
                .set("type", new GenericData.EnumSymbol(v3.getField("type").schema(), "ANSWER")).set("ts_ms", 5L)
                .set("text", "Complete list: 2 patients").build();

        ReplyEvent read = REPLIES.deserialize("chartstream.replies", singleObject(v3, old));

        assertThat(read.getText()).isEqualTo("Complete list: 2 patients");
        assertThat(read.getSetResult()).isNull();
    }

    @Test
    void aReplyWithASetResultRoundTripsAndResolvesAgainstTheOlderSchema() throws IOException {
        ReplyEvent reply = ReplyEvent.newBuilder().setRequestId("r").setSeq(3).setType(ReplyType.ANSWER).setTsMs(4L)
                .setText("3 patients").setCompleteness(AnswerCompleteness.COMPLETE).setSetResult(SetResult.newBuilder()
                        .setOutput(SetOutput.VALUES).setField("route").setRows(21).setPatients(17)
                        .setValues(List.of(new SetValue("PO", 20L, 16L), new SetValue("IV", 1L, 1L)))
                        .setConcepts(List.of("amoxicillin")).setComplete(true).build()).build();
        assertThat(REPLIES.deserialize("t", REPLIES.serialize("t", reply))).isEqualTo(reply);

        GenericRecord asOld = readAs(history("ReplyEvent-v3.avsc"), ReplyEvent.getClassSchema(), reply);

        assertThat(asOld.getSchema().getField("set_result")).isNull();
        assertThat(asOld.get("text")).hasToString("3 patients");
        assertThat(asOld.get("completeness")).hasToString("COMPLETE");
    }

    @Test
    void aSetResultDefaultsToEmptyListsAndNotComplete() {
        SetResult counted = SetResult.newBuilder().setOutput(SetOutput.COUNT).setRows(21).setPatients(17).build();

        assertThat(counted.getField()).isNull();
        assertThat(counted.getPatientsListed()).isEmpty();
        assertThat(counted.getValues()).isEmpty();
        assertThat(counted.getRowIds()).isEmpty();
        assertThat(counted.getConcepts()).isEmpty();
        assertThat(counted.getComplete()).isFalse();
        assertThat(counted.getListsCut()).isFalse();
    }

    @Test
    void anOutputKindThisReaderDoesNotKnowReadsAsOther() throws IOException {
        Schema later = new Schema.Parser().parse(ReplyEvent.getClassSchema().toString()
                .replace("\"EARLIEST\",\"OTHER\"]", "\"EARLIEST\",\"OTHER\",\"MEDIAN\"]"));
        Schema laterSet = later.getField("set_result").schema().getTypes().get(1);
        assertThat(laterSet.getField("output").schema().getEnumSymbols()).endsWith("MEDIAN");
        GenericRecord set = new GenericRecordBuilder(laterSet)
                .set("output", new GenericData.EnumSymbol(laterSet.getField("output").schema(), "MEDIAN"))
                .set("rows", 9L).set("patients", 4L).build();
        GenericRecord written = new GenericRecordBuilder(later).set("request_id", "r-later").set("seq", 1)
                .set("type", new GenericData.EnumSymbol(later.getField("type").schema(), "ANSWER")).set("ts_ms", 1L)
                .set("set_result", set).build();
        BinaryMessageDecoder<ReplyEvent> reader = ReplyEvent.createDecoder(KnownSchemas.store());
        reader.addSchema(later);

        ReplyEvent read = reader.decode(singleObject(later, written));

        assertThat(read.getSetResult().getOutput()).isEqualTo(SetOutput.OTHER);
        assertThat(read.getSetResult().getRows()).isEqualTo(9L);
        assertThat(read.getSetResult().getPatients()).isEqualTo(4L);
    }

    @Test
    void aRememberedRequestIdWhoseOutcomeWasAVersionThreeReplyReadsWithoutASetResult() throws IOException {
        Schema v2 = history("RequestIdEntry-v2.avsc");
        Schema replyV3 = v2.getField("outcome").schema().getTypes().get(1);
        assertThat(replyV3.getField("set_result")).isNull();
        GenericRecord outcome = new GenericRecordBuilder(replyV3).set("request_id", "r-old").set("seq", 4)
                .set("type", new GenericData.EnumSymbol(replyV3.getField("type").schema(), "ANSWER")).set("ts_ms", 2L).build();
        GenericRecord old = new GenericRecordBuilder(v2).set("fingerprint", "f").set("first_seen_ms", 1L)
                .set("outcome", outcome).build();

        RequestIdEntry read = AvroSerde.of(RequestIdEntry.class).deserialize("request-ids", singleObject(v2, old));

        assertThat(read.getOutcome().getType()).isEqualTo(ReplyType.ANSWER);
        assertThat(read.getOutcome().getSetResult()).isNull();
    }

    @Test
    void anAuditRecordWrittenBeforeSetResultsReadsWithoutOneAndACurrentOneResolvesAgainstTheOlderSchema() throws IOException {
        Schema v4 = history("AnswerAudit-v4.avsc");
        assertThat(v4.getField("set_result")).isNull();
        GenericRecord old = new GenericRecordBuilder(v4).set("request_id", "r-v4").set("conversation_id", "c")
                .set("user_id", "u").set("ts_ms", 5L).set("outcome", new GenericData.EnumSymbol(v4.getField("outcome").schema(), "ANSWER"))
                .set("embedding_model", "m").build();
        AvroSerde<AnswerAudit> audits = AvroSerde.of(AnswerAudit.class);

        assertThat(audits.deserialize("chartstream.audit", singleObject(v4, old)).getSetResult()).isNull();

        AnswerAudit current = AnswerAudit.newBuilder().setRequestId("r").setConversationId("c").setUserId("u").setTsMs(6L)
                .setOutcome(ReplyType.ANSWER).setEmbeddingModel("m").setSetResult(SetAudit.newBuilder()
                        .setOutput(SetOutput.PATIENTS).setRows(21).setPatients(17).setPatientsListed(17)
                        .setConcepts(List.of("simvastatin", "atorvastatin")).setComplete(true).build()).build();
        assertThat(audits.deserialize("t", audits.serialize("t", current))).isEqualTo(current);
        GenericRecord asOld = readAs(v4, AnswerAudit.getClassSchema(), current);
        assertThat(asOld.getSchema().getField("set_result")).isNull();
        assertThat(asOld.get("request_id")).hasToString("r");
    }

    @Test
    void aTurnWrittenBeforeWholeSetsReadsAsNotAWholeSetAndAWholeSetTurnRoundTrips() throws IOException {
        Schema v2 = history("ConversationMemory-v2.avsc");
        Schema turnV2 = v2.getField("turns").schema().getElementType();
        assertThat(turnV2.getField("whole_set")).isNull();
        GenericRecord turn = new GenericRecordBuilder(turnV2).set("question", "q").set("answer", "a").set("ts_ms", 4L)
                .set("patient_keys", List.of("p1", "p2")).build();
        GenericRecord old = new GenericRecordBuilder(v2).set("conversation_id", "c").set("user_id", "u")
                .set("turns", List.of(turn)).build();
        AvroSerde<ConversationMemory> memories = AvroSerde.of(ConversationMemory.class);

        ConversationTurn read = memories.deserialize("memory", singleObject(v2, old)).getTurns().get(0);
        assertThat(read.getPatientKeys()).containsExactly("p1", "p2");
        assertThat(read.getWholeSet()).isFalse();

        ConversationMemory current = ConversationMemory.newBuilder().setConversationId("c").setUserId("u")
                .setTurns(List.of(ConversationTurn.newBuilder().setQuestion("q").setAnswer("a").setTsMs(1L)
                        .setPatientKeys(List.of("p1", "p2", "p3")).setWholeSet(true).build())).build();
        assertThat(memories.deserialize("t", memories.serialize("t", current))).isEqualTo(current);
        GenericRecord asOld = readAs(v2, ConversationMemory.getClassSchema(), current);
        GenericRecord oldTurn = (GenericRecord) ((List<?>) asOld.get("turns")).get(0);
        assertThat(oldTurn.getSchema().getField("whole_set")).isNull();
        assertThat((List<?>) oldTurn.get("patient_keys")).hasSize(3);
    }

    /** The record as a reader of {@code older} reads it, the two schemas compatible both ways. */
    private static GenericRecord readAs(Schema older, Schema current, SpecificRecord record) throws IOException {
        assertThat(SchemaCompatibility.checkReaderWriterCompatibility(current, older).getType())
                .isEqualTo(SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE);
        assertThat(SchemaCompatibility.checkReaderWriterCompatibility(older, current).getType())
                .isEqualTo(SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        new SpecificDatumWriter<SpecificRecord>(current).write(record, encoder);
        encoder.flush();
        return new GenericDatumReader<GenericRecord>(current, older)
                .read(null, DecoderFactory.get().binaryDecoder(out.toByteArray(), null));
    }

    private static Schema history(String file) throws IOException {
        try (InputStream in = SetResultEvolutionTest.class.getResourceAsStream("/avro-history/" + file)) {
            return new Schema.Parser().parse(in);
        }
    }

    private static byte[] singleObject(Schema writer, GenericRecord record) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new BinaryMessageEncoder<GenericRecord>(GenericData.get(), writer).encode(record, out);
        return out.toByteArray();
    }
}

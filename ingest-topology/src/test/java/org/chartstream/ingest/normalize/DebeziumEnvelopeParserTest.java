package org.chartstream.ingest.normalize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.chartstream.ingest.project.TableProjection;
import org.chartstream.schemas.RowChange;
import org.chartstream.schemas.RowOp;
import org.chartstream.schemas.SnapshotMarker;
import org.junit.jupiter.api.Test;

class DebeziumEnvelopeParserTest {
    private final SourceRegistration ehr = new SourceRegistration("ehr", "postgres", "ehr", null,
            Map.of("patients", new TableProjection("patients", List.of(), Set.of(), "patient_id")));

    @Test
    void readsASnapshotRowWithoutEmbeddedSchemas() {
        String value = """
                {"before":null,"after":{"patient_id":"6f1c","patient_no":"MRN-1","first_name":"Martha"},
                 "source":{"connector":"postgresql","snapshot":"first_in_data_collection","lsn":24023128,"ts_ms":1700000000000,"table":"patients"},
                 "op":"r","ts_ms":1700000000100}""";

        RowChange change = DebeziumEnvelopeParser.parse(ehr, "ehr.public.patients", "{\"patient_id\":\"6f1c\"}", value);

        assertThat(change.getOp()).isEqualTo(RowOp.SNAPSHOT);
        assertThat(change.getTableName()).isEqualTo("patients");
        assertThat(change.getSchemaName()).isEqualTo("public");
        assertThat(change.getRowKey()).isEqualTo("6f1c");
        assertThat(change.getAfter()).containsEntry("first_name", "Martha");
        assertThat(change.getSnapshot()).isEqualTo(SnapshotMarker.FIRST_IN_TABLE);
        assertThat(change.getSourcePosition()).isEqualTo("lsn:24023128");
        assertThat(change.getCommitTsMs()).isEqualTo(1700000000000L);
    }

    @Test
    void rendersTemporalValuesAsIsoWhenTheEnvelopeCarriesItsSchema() {
        String value = """
                {"schema":{"type":"struct","fields":[
                   {"type":"struct","field":"before","fields":[]},
                   {"type":"struct","field":"after","fields":[
                      {"type":"int32","name":"io.debezium.time.Date","field":"birth_date"},
                      {"type":"int64","name":"io.debezium.time.MicroTimestamp","field":"seen_at"},
                      {"type":"int64","field":"visits"}]}]},
                 "payload":{"before":null,"after":{"birth_date":19000,"seen_at":1700000000000000,"visits":19000},
                   "source":{"snapshot":"false","file":"binlog.000003","pos":1234,"row":0,"ts_ms":5},"op":"c","ts_ms":6}}""";

        RowChange change = DebeziumEnvelopeParser.parse(ehr, "ehr.clinic.patients", "{\"schema\":{},\"payload\":{\"id\":7}}", value);

        assertThat(change.getOp()).isEqualTo(RowOp.CREATE);
        assertThat(change.getAfter()).containsEntry("birth_date", "2022-01-08").containsEntry("seen_at", "2023-11-14T22:13:20")
                .containsEntry("visits", "19000");
        assertThat(change.getSourcePosition()).isEqualTo("binlog:binlog.000003:1234:0");
        assertThat(change.getRowKey()).isEqualTo("7");
    }

    @Test
    void aTombstoneIsADeleteOfTheKeyedRowAndCompositeKeysJoinInOrder() {
        RowChange change = DebeziumEnvelopeParser.parse(ehr, "ehr.public.patients", "{\"site\":\"north\",\"id\":42}", null);
        assertThat(change.getOp()).isEqualTo(RowOp.DELETE);
        assertThat(change.getRowKey()).isEqualTo("north|42");
    }

    @Test
    void namesWhatIsWrongWithAMalformedEvent() {
        assertThatThrownBy(() -> DebeziumEnvelopeParser.parse(ehr, "ehr.public.patients", "{\"id\":1}", "not json"))
                .isInstanceOf(MalformedChangeException.class).hasMessageContaining("not valid JSON");
        assertThatThrownBy(() -> DebeziumEnvelopeParser.parse(ehr, "ehr.public.patients", "{\"id\":1}", "{\"source\":{}}"))
                .hasMessageContaining("no 'op' field");
        assertThatThrownBy(() -> DebeziumEnvelopeParser.parse(ehr, "ehr.public.patients", "{\"id\":1}", "{\"op\":\"x\",\"source\":{}}"))
                .hasMessageContaining("unknown op 'x'");
        assertThatThrownBy(() -> DebeziumEnvelopeParser.parse(ehr, "ehr.public.patients", "{\"id\":1}", "{\"op\":\"c\",\"source\":{},\"after\":null}"))
                .hasMessageContaining("no 'after' row");
        assertThatThrownBy(() -> DebeziumEnvelopeParser.parse(ehr, "ehr.patients", "{\"id\":1}", null))
                .hasMessageContaining("<prefix>.<schema>.<table>");
        assertThatThrownBy(() -> DebeziumEnvelopeParser.parse(ehr, "ehr.public.patients", "{}", null))
                .hasMessageContaining("no primary-key columns");
    }

    @Test
    void columnsThatCannotBeRenderedAsTextAreLeftOutAndNamedWhileDecimalsAndScalarArraysAreRendered() {
        String value = """
                {"schema":{"type":"struct","fields":[
                   {"type":"struct","field":"before","fields":[]},
                   {"type":"struct","field":"after","fields":[
                      {"type":"int32","field":"id"},
                      {"type":"bytes","field":"scan"},
                      {"type":"struct","name":"io.debezium.data.geometry.Point","field":"site"},
                      {"type":"bytes","name":"org.apache.kafka.connect.data.Decimal","parameters":{"scale":"2"},"field":"dose"},
                      {"type":"array","field":"tags"},
                      {"type":"string","field":"note"}]}]},
                 "payload":{"before":null,"after":{"id":1,"scan":"iVBORw0KGgo=","site":{"x":1.5,"y":2.5,"wkb":"AQEAAAA=","srid":null},
                   "dose":"MDk=","tags":["acute","renal"],"note":"stable"},
                   "source":{"lsn":5,"ts_ms":5},"op":"c","ts_ms":6}}""";

        DebeziumEnvelopeParser.Parsed parsed = DebeziumEnvelopeParser.read(ehr, "ehr.public.patients", "{\"id\":1}", value);

        assertThat(parsed.unreadableColumns()).containsExactly(Map.entry("scan", "bytes"), Map.entry("site", "io.debezium.data.geometry.Point"));
        assertThat(parsed.change().getAfter()).containsOnlyKeys("id", "dose", "tags", "note")
                .containsEntry("dose", "123.45").containsEntry("tags", "acute, renal").containsEntry("note", "stable");
    }

    @Test
    void withoutASchemaAnObjectOrAnArrayOfObjectsIsUnreadable() {
        String value = """
                {"before":null,"after":{"id":2,"shape":{"wkb":"AQEAAAA=","srid":4326},"parts":[{"a":1}],"codes":["I10",null]},
                 "source":{"lsn":5},"op":"c"}""";

        DebeziumEnvelopeParser.Parsed parsed = DebeziumEnvelopeParser.read(ehr, "ehr.public.patients", "{\"id\":2}", value);

        assertThat(parsed.unreadableColumns()).containsExactly(Map.entry("shape", "struct"), Map.entry("parts", "array of structs"));
        assertThat(parsed.change().getAfter()).containsOnlyKeys("id", "codes").containsEntry("codes", "I10");
    }

    @Test
    void aTruncateEventWithoutKeyOrRowImagesIsReadAsTheTableBeingEmptied() {
        // what Debezium 3.5 writes for TRUNCATE on PostgreSQL (pgoutput) with skipped.operations=none
        String value = "{\"before\":null,\"after\":null,\"source\":{\"connector\":\"postgresql\",\"lsn\":24100000,"
                + "\"ts_ms\":1700000000500,\"schema\":\"public\",\"table\":\"patients\"},\"op\":\"t\",\"ts_ms\":1700000000600}";

        DebeziumEnvelopeParser.Parsed parsed = DebeziumEnvelopeParser.read(ehr, "ehr.public.patients", null, value);

        assertThat(parsed.change()).isNull();
        assertThat(parsed.truncation()).isEqualTo(new TableTruncated("ehr", "public", "patients", "lsn:24100000", 1700000000500L));
        assertThat(parsed.truncation().tableKey()).isEqualTo("ehr:patients");
        String wrapped = "{\"schema\":{\"type\":\"struct\"},\"payload\":" + value + "}";
        assertThat(DebeziumEnvelopeParser.read(ehr, "ehr.public.patients", null, wrapped).truncation()).isNotNull();
    }
}

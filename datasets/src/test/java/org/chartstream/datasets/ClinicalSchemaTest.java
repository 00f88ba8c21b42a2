package org.chartstream.datasets;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ClinicalSchemaTest {

    @Test
    void tablesInLoadOrderWithKeys() {
        assertThat(ClinicalSchema.TABLES)
                .containsExactly("patients", "encounters", "conditions", "medications", "clinical_notes");
        assertThat(ClinicalSchema.primaryKey("patients")).isEqualTo("patient_id");
        assertThat(ClinicalSchema.primaryKey("encounters")).isEqualTo("encounter_id");
        assertThat(ClinicalSchema.primaryKey("conditions")).isEqualTo("condition_id");
        assertThat(ClinicalSchema.primaryKey("medications")).isEqualTo("medication_id");
        assertThat(ClinicalSchema.primaryKey("clinical_notes")).isEqualTo("note_id");
        for (String t : ClinicalSchema.TABLES) {
            assertThat(ClinicalSchema.patientIdColumn(t)).isEqualTo("patient_id");
            assertThat(ClinicalSchema.columns(t)).contains(ClinicalSchema.primaryKey(t), "patient_id", "created_at");
            assertThat(ClinicalSchema.dataColumns(t)).doesNotContain("created_at", "updated_at");
        }
        assertThat(ClinicalSchema.dataColumns("patients")).containsExactly("patient_id", "patient_no",
                "first_name", "last_name", "birth_date", "gender", "city", "state");
        assertThat(ClinicalSchema.dataColumns("clinical_notes")).containsExactly("note_id", "note_no",
                "patient_id", "encounter_id", "note_date", "chief_complaint", "secondary_complaints", "note_text");
    }

    @Test
    void ddlIsIdempotentAndHasReplicaIdentityFull() {
        List<String> ddl = ClinicalSchema.ddlStatements();
        for (String t : ClinicalSchema.TABLES) {
            assertThat(ddl).contains("ALTER TABLE public." + t + " REPLICA IDENTITY FULL");
            assertThat(ddl).anyMatch(s -> s.startsWith("CREATE TABLE IF NOT EXISTS public." + t + " ("));
        }
        assertThat(ddl.indexOf(ClinicalSchema.table("patients").createTableSql()))
                .isLessThan(ddl.indexOf(ClinicalSchema.table("encounters").createTableSql()));
        String script = ClinicalSchema.ddl();
        assertThat(script).contains("patient_id uuid PRIMARY KEY", "patient_no text NOT NULL UNIQUE",
                "patient_id uuid NOT NULL REFERENCES public.patients (patient_id)",
                "condition_id bigint PRIMARY KEY", "note_no text NOT NULL UNIQUE",
                "created_at timestamptz DEFAULT now()", "start_time timestamptz", "birth_date date");
        assertThat(ddl).allMatch(s -> !s.contains(";"));
    }

    @Test
    void insertSqlBindsEveryDataColumn() {
        for (ClinicalSchema.Table t : ClinicalSchema.tables()) {
            String sql = t.insertSql();
            assertThat(sql).startsWith("INSERT INTO public." + t.name() + " (" + String.join(", ",
                    t.dataColumnNames()) + ") VALUES (").endsWith(") ON CONFLICT DO NOTHING");
            assertThat(sql.chars().filter(c -> c == '?').count()).isEqualTo(t.dataColumns().size());
        }
    }
}

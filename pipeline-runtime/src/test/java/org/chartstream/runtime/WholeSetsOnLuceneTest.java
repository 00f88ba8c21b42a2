package org.chartstream.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.chartstream.core.binding.EmbedPolicy;
import org.chartstream.core.binding.SourceBinding;
import org.chartstream.core.binding.TableBinding;
import org.chartstream.core.binding.TableRole;
import org.chartstream.core.store.PatientLabel;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.core.store.TableRef;
import org.chartstream.retrieval.Completeness;
import org.chartstream.retrieval.SetResult;
import org.chartstream.retrieval.plan.SetAnswer;
import org.chartstream.retrieval.plan.SetDecision;
import org.chartstream.retrieval.plan.WholeSets;
import org.chartstream.retrieval.search.SearchIndex;
import org.chartstream.store.lucene.LuceneHybridStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole-set plans executed on the Lucene store's exact row sets (the store the pipeline runs on by default), over
 * MIMIC-shaped bindings: a drug class with a negation, a field's values, the latest row, an admission's rows, current
 * rows and the most frequent values are each the set SQL gives.
 */
class WholeSetsOnLuceneTest {
    private static final String SOURCE = "hosp";

    @TempDir
    Path dir;
    private LuceneHybridStore store;
    private WholeSets sets;

    private static TableBinding table(String name, TableRole role, String concept, String conceptField, List<String> time,
                                      String end, List<String> fields, Map<String, List<String>> terms) {
        return new TableBinding(name, role, List.of(), "subject_id", role == TableRole.PATIENT ? null : "hadm_id", null,
                role == TableRole.ENCOUNTER ? "hadm_id" : role == TableRole.PATIENT ? "subject_id" : null, List.of(), null, time,
                end, fields, List.of(), Map.of(), terms, List.of(), concept, conceptField, EmbedPolicy.ROW);
    }

    private void row(String table, String key, String patient, String... pairs) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            fields.put(pairs[i], pairs[i + 1]);
        }
        RowRef ref = new RowRef(SOURCE, table, key);
        store.upsertRow(ref, 1, List.of(new StoredChunk(StoredChunk.chunkId(ref, 0, 1), ref, 0, 1, 1,
                table + " " + String.join(" ", fields.values()), new float[] {1, 0, 0}, patient,
                PatientLabel.of(patient, null, null), "lsn/" + key, 1_700_000_000_000L, "test-model", fields)));
    }

    @BeforeEach
    void index() {
        store = LuceneHybridStore.open(dir);
        for (String t : List.of("admissions", "diagnoses_icd", "prescriptions", "labevents")) {
            store.publish(new TableRef(SOURCE, t), 1);
        }
        row("admissions", "a1", "101", "hadm_id", "20000001", "admittime", "2150-01-01T10:00:00", "dischtime", "2150-01-04T10:00:00");
        row("admissions", "a2", "102", "hadm_id", "20000002", "admittime", "2160-01-01T10:00:00");
        row("diagnoses_icd", "d1", "101", "hadm_id", "20000001", "diagnosis", "Unspecified essential hypertension");
        row("diagnoses_icd", "d2", "102", "hadm_id", "20000002", "diagnosis", "Essential (primary) hypertension");
        row("diagnoses_icd", "d3", "103", "diagnosis", "Essential (primary) hypertension");
        row("diagnoses_icd", "d4", "103", "diagnosis", "Atrial fibrillation");
        row("prescriptions", "r1", "101", "drug", "Atorvastatin", "route", "PO", "starttime", "2150-01-02T08:00:00");
        row("prescriptions", "r2", "102", "drug", "Nystatin Oral Suspension", "route", "PO", "starttime", "2160-01-02T08:00:00",
                "stoptime", "2160-01-03T08:00:00");
        row("prescriptions", "r3", "103", "drug", "Simvastatin", "route", "PO", "starttime", "2140-01-02T08:00:00");
        row("prescriptions", "r4", "103", "drug", "Amoxicillin", "route", "PO/NG", "starttime", "2140-01-03T08:00:00",
                "stoptime", "2140-01-09T08:00:00");
        row("prescriptions", "r5", "102", "drug", "Amoxicillin", "route", "PO", "starttime", "2160-01-03T08:00:00",
                "stoptime", "2160-01-09T08:00:00");
        row("labevents", "l1", "101", "lab test", "Creatinine", "value", "1.1", "charttime", "2150-01-02T06:00:00");
        row("labevents", "l2", "101", "lab test", "Creatinine", "value", "1.4", "charttime", "2150-01-03T06:00:00");
        store.commit(Map.of("index-0", "1"));
        SourceBinding binding = SourceBinding.of(List.of(
                table("admissions", TableRole.ENCOUNTER, "admission", null, List.of("admittime"), "dischtime",
                        List.of("hadm_id", "admittime", "dischtime"), Map.of()),
                table("diagnoses_icd", TableRole.EVENT, "diagnosis", "diagnosis", List.of(), null, List.of("hadm_id", "diagnosis"),
                        Map.of()),
                table("prescriptions", TableRole.EVENT, "medication", "drug", List.of("starttime"), "stoptime",
                        List.of("drug", "route", "starttime", "stoptime"), Map.of("route", List.of("administered"))),
                table("labevents", TableRole.EVENT, "lab test", "lab test", List.of("charttime"), null,
                        List.of("lab test", "value", "charttime"), Map.of())));
        sets = WholeSets.of(SearchIndex.of(store), Map.of(SOURCE, binding), 500, 600);
    }

    @AfterEach
    void close() {
        store.close();
    }

    private SetResult complete(String question, String patient) {
        SetDecision decision = sets.plan(question, patient == null ? RetrievalFilter.NONE : RetrievalFilter.forPatient(patient),
                patient == null ? List.of() : List.of(patient), List.of());
        assertThat(decision).as(question).isInstanceOf(SetDecision.Planned.class);
        org.chartstream.retrieval.plan.SetPlan plan = ((SetDecision.Planned) decision).plan();
        return org.chartstream.retrieval.plan.SetLabels.wholeSet(plan, sets.execute(plan));
    }

    @Test
    void eachKindIsTheExactSetOnTheLuceneStore() {
        assertThat(complete("Which patients are on a statin?", null).patientsListed()).containsExactly("101", "103");
        assertThat(complete("Which patients with essential hypertension were never prescribed a statin?", null).patientsListed())
                .containsExactly("102");
        assertThat(complete("How is amoxicillin administered?", null).values()).containsExactly(
                new SetResult.Value("PO", 1, 1), new SetResult.Value("PO/NG", 1, 1));
        assertThat(complete("What was the most recent creatinine result for patient 101?", "101").rowIds())
                .containsExactly("hosp:labevents:l2");
        assertThat(complete("What were the diagnoses for admission 20000001?", null).rowIds())
                .containsExactly("hosp:diagnoses_icd:d1");
        assertThat(complete("Which patients are still in hospital?", null).patientsListed()).containsExactly("102");
        assertThat(complete("How many patients were diagnosed with essential hypertension?", null).patients()).isEqualTo(3);
        assertThat(complete("What is the most common diagnosis by number of patients?", null).values())
                .extracting(SetResult.Value::value).containsExactly("Essential (primary) hypertension");
        assertThat(complete("Which patients had a drug started since 2150?", null).patientsListed()).containsExactly("101", "102");
    }
}

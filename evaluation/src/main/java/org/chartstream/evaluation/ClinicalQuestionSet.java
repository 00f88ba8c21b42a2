package org.chartstream.evaluation;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.chartstream.datasets.ClinicalDataset;
import org.chartstream.datasets.ClinicalRow;
import org.chartstream.datasets.PatientRow;
import org.chartstream.ingest.project.PatientIdentity;
import org.chartstream.ingest.project.RowProjector;
import org.chartstream.ingest.project.TableProjection;

/**
 * The generated clinical questions with the dataset they were generated from. Written as a BEIR folder whose corpus
 * is the clinical rows themselves (document id {@code table:row_key}, text as the ingest projects it), so that
 * {@code eval --beir} reads it like any other BEIR set; {@code queries.jsonl} also carries each question's kind,
 * whether it is answerable, and a follow-up's previous turn.
 */
public record ClinicalQuestionSet(ClinicalDataset dataset, List<ClinicalQuestion> questions) {
    private static final ObjectMapper JSON = new ObjectMapper();

    public ClinicalQuestionSet {
        questions = List.copyOf(questions);
    }

    /** Answerable single-turn questions. */
    public List<ClinicalQuestion> answerable() {
        return questions.stream().filter(q -> q.answerable() && !q.followUp()).toList();
    }

    /** Second turns that need the first to be understood. */
    public List<ClinicalQuestion> followUps() {
        return questions.stream().filter(ClinicalQuestion::followUp).toList();
    }

    /** Questions the records cannot answer (names several patients share excluded: they expect a clarification). */
    public List<ClinicalQuestion> unanswerable() {
        return questions.stream().filter(q -> !q.answerable() && !q.expectsClarification()).toList();
    }

    /** Names several patients share: the reply must ask which patient. */
    public List<ClinicalQuestion> ambiguousNames() {
        return questions.stream().filter(ClinicalQuestion::expectsClarification).toList();
    }

    /** Every question with judgments, with its kind; a follow-up carries its previous turn's question. */
    public List<RetrievalEvaluation.JudgedQuery> judged() {
        return questions.stream().filter(ClinicalQuestion::answerable)
                .map(q -> new RetrievalEvaluation.JudgedQuery(q.id(), q.text(), q.kind(), q.judgments(), q.previous())).toList();
    }

    /** Writes corpus.jsonl, queries.jsonl, qrels/test.tsv and manifest.json into {@code dir}. */
    public void write(Path dir) throws IOException {
        Files.createDirectories(dir.resolve("qrels"));
        try (BufferedWriter w = Files.newBufferedWriter(dir.resolve("corpus.jsonl"), StandardCharsets.UTF_8)) {
            for (Map.Entry<String, String> doc : corpus().entrySet()) {
                Map<String, Object> line = new LinkedHashMap<>();
                line.put("_id", doc.getKey());
                line.put("title", "");
                line.put("text", doc.getValue());
                w.write(JSON.writeValueAsString(line));
                w.write('\n');
            }
        }
        try (BufferedWriter w = Files.newBufferedWriter(dir.resolve("queries.jsonl"), StandardCharsets.UTF_8)) {
            for (ClinicalQuestion q : questions) {
                Map<String, Object> line = new LinkedHashMap<>();
                line.put("_id", q.id());
                line.put("text", q.text());
                line.put("kind", q.kind());
                line.put("answerable", q.answerable());
                if (q.previous() != null) {
                    line.put("previous", q.previous());
                }
                if (q.expectsClarification()) {
                    line.put("expected", "clarification");
                }
                w.write(JSON.writeValueAsString(line));
                w.write('\n');
            }
        }
        try (BufferedWriter w = Files.newBufferedWriter(dir.resolve("qrels").resolve("test.tsv"), StandardCharsets.UTF_8)) {
            w.write("query-id\tcorpus-id\tscore\n");
            for (ClinicalQuestion q : questions) {
                for (Map.Entry<String, Integer> j : new TreeMap<>(q.judgments()).entrySet()) {
                    w.write(q.id() + "\t" + j.getKey() + "\t" + j.getValue() + "\n");
                }
            }
        }
        Map<String, Object> manifest = new LinkedHashMap<>();
        manifest.put("generator", ClinicalQuestionGenerator.class.getName());
        manifest.put("dataset_seed", dataset.spec().seed());
        manifest.put("dataset_patients", dataset.spec().patients());
        manifest.put("rows", dataset.rowCounts());
        manifest.put("answerable", answerable().size());
        manifest.put("follow_ups", followUps().size());
        manifest.put("unanswerable", unanswerable().size());
        manifest.put("ambiguous_names", ambiguousNames().size());
        JSON.writerWithDefaultPrettyPrinter().writeValue(dir.resolve("manifest.json").toFile(), manifest);
    }

    /** The patient (id) of every row, keyed {@code table:row_key} like the corpus. */
    public Map<String, String> patientOfRow() {
        Map<String, String> patients = new java.util.HashMap<>();
        dataset.tables().forEach((table, rows) -> rows.forEach(row ->
                patients.put(table + ":" + row.primaryKey(), row.patientId().toString())));
        return patients;
    }

    /** Every row as the ingest would project it (all fields allowed, patient header), keyed {@code table:row_key}. */
    public Map<String, String> corpus() {
        Map<String, PatientIdentity> identities = new java.util.HashMap<>();
        for (PatientRow p : dataset.patients()) {
            identities.put(p.patientId().toString(), new PatientIdentity(p.patientId().toString(), p.fullName(), p.patientNo()));
        }
        Map<String, String> docs = new LinkedHashMap<>();
        dataset.tables().forEach((table, rows) -> {
            TableProjection projection = new TableProjection(table, List.of(), java.util.Set.of(), "patient_id");
            for (ClinicalRow row : rows) {
                Map<String, String> values = new LinkedHashMap<>();
                row.values().forEach((column, value) -> {
                    if (value != null) {
                        values.put(column, value.toString());
                    }
                });
                docs.put(table + ":" + row.primaryKey(), RowProjector.text(projection, values,
                        identities.get(row.patientId().toString())));
            }
        });
        return docs;
    }
}

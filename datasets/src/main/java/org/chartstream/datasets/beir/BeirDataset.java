package org.chartstream.datasets.beir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A BEIR-format dataset: corpus.jsonl, queries.jsonl and qrels/test.tsv (graded judgments). */
public record BeirDataset(String name, List<Document> corpus, List<Query> queries, Map<String, Map<String, Integer>> qrels) {

    public record Document(String id, String title, String text) {
    }

    public record Query(String id, String text) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    public static BeirDataset load(Path dir) {
        Path corpusFile = dir.resolve("corpus.jsonl");
        Path queriesFile = dir.resolve("queries.jsonl");
        Path qrelsFile = dir.resolve("qrels").resolve("test.tsv");
        for (Path required : List.of(corpusFile, queriesFile, qrelsFile)) {
            if (!Files.isRegularFile(required)) {
                throw new IllegalArgumentException("not a BEIR dataset: " + required + " is missing");
            }
        }
        List<Document> corpus = new ArrayList<>();
        for (JsonNode n : jsonLines(corpusFile)) {
            corpus.add(new Document(n.path("_id").asText(), n.path("title").asText(""), n.path("text").asText("")));
        }
        Map<String, Map<String, Integer>> qrels = new LinkedHashMap<>();
        try (BufferedReader r = Files.newBufferedReader(qrelsFile)) {
            String line;
            boolean header = true;
            while ((line = r.readLine()) != null) {
                if (header) {
                    header = false;
                    if (line.startsWith("query-id")) {
                        continue;
                    }
                }
                String[] f = line.split("\t");
                if (f.length >= 3) {
                    qrels.computeIfAbsent(f[0], q -> new LinkedHashMap<>()).put(f[1], Integer.parseInt(f[2].trim()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + qrelsFile, e);
        }
        List<Query> queries = new ArrayList<>();
        for (JsonNode n : jsonLines(queriesFile)) {
            String id = n.path("_id").asText();
            if (qrels.containsKey(id)) { // only judged queries are evaluated
                queries.add(new Query(id, n.path("text").asText()));
            }
        }
        return new BeirDataset(dir.getFileName().toString(), corpus, queries, qrels);
    }

    private static List<JsonNode> jsonLines(Path file) {
        List<JsonNode> out = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(file)) {
            String line;
            int n = 0;
            while ((line = r.readLine()) != null) {
                n++;
                if (!line.isBlank()) {
                    try {
                        out.add(JSON.readTree(line));
                    } catch (IOException e) {
                        throw new IllegalArgumentException(file + " line " + n + " is not JSON: " + e.getMessage());
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        return out;
    }
}

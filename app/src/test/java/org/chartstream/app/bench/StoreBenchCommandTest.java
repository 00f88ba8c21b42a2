package org.chartstream.app.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class StoreBenchCommandTest {

  @TempDir
  Path tempDir;

  @Test
  void aSmallRunPrintsTheFiguresAsTheLastJsonLine() throws Exception {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new BenchCommand());
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    Path dir = tempDir.resolve("index");
    int code = cli.execute("store", "--json", "--chunks", "3000", "--dimension", "32", "--clusters", "50",
        "--queries", "200", "--warmup", "20", "--commit-every", "1000", "--dir", dir.toString());

    assertThat(code).as(err.toString()).isZero();
    String[] lines = out.toString().strip().split("\n");
    JsonNode figures = new ObjectMapper().readTree(lines[lines.length - 1]);
    List<String> keys = new ArrayList<>();
    figures.fieldNames().forEachRemaining(keys::add);
    assertThat(keys).contains("chunks", "knn_p50_ms", "knn_p95_ms", "knn_recall_at_10", "exact_scan_p50_ms",
        "knn_to_exact_ratio", "filtered_knn_p50_ms", "filtered_knn_recall_at_10", "bm25_p50_ms", "segments",
        "index_mb", "heap_mb", "vector_format", "jvm", "lucene");
    assertThat(figures.get("segments").asInt()).as("merged to one segment before measuring").isEqualTo(1);
    assertThat(figures.get("knn_to_exact_ratio").asDouble())
        .isCloseTo(figures.get("knn_p50_ms").asDouble() / figures.get("exact_scan_p50_ms").asDouble(),
            org.assertj.core.data.Percentage.withPercentage(5));
    assertThat(figures.get("lucene").asText()).startsWith("10.");
    assertThat(figures.get("vector_format").asText()).contains("ScalarQuantized");
    assertThat(figures.get("chunks").asInt()).isEqualTo(3000);
    assertThat(figures.get("queries").asInt()).isEqualTo(200);
    assertThat(figures.get("index_threads").asInt()).isEqualTo(2);
    assertThat(figures.get("knn_recall_at_10").asDouble()).isGreaterThan(0.9);
    assertThat(figures.get("filtered_knn_recall_at_10").asDouble()).isGreaterThan(0.9);
    assertThat(figures.get("knn_p50_ms").asDouble()).isPositive();
    assertThat(figures.get("bm25_p50_ms").asDouble()).isPositive();
    assertThat(figures.get("exact_scan_p50_ms").asDouble()).isPositive();
    assertThat(err.toString()).contains("indexed 3,000/3,000 chunks").contains("measured 200/200 queries");
    assertThat(Files.list(dir).findAny()).as("--dir keeps the index").isPresent();

    int again = cli.execute("store", "--json", "--chunks", "3000", "--dir", dir.toString());
    assertThat(again).as("an existing index is never overwritten").isNotZero();
  }

  @Test
  void tooFewQueriesForAStableRecallAreRefused() {
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new BenchCommand());
    cli.setErr(new PrintWriter(err));
    assertThat(cli.execute("store", "--queries", "50")).isNotZero();
    assertThat(err.toString()).contains("--queries must be at least 200");
  }

  @Test
  void benchIsAContainerThatOtherBenchmarksCanJoin() {
    CommandLine cli = new CommandLine(new BenchCommand());
    assertThat(cli.getSubcommands()).containsKey("store");
    StringWriter out = new StringWriter();
    cli.setOut(new PrintWriter(out));
    assertThat(cli.execute()).isZero();
    assertThat(out.toString()).contains("store");
  }
}

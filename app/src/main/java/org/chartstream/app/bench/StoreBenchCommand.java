package org.chartstream.app.bench;

import java.nio.file.Path;
import org.chartstream.bench.StoreBench;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** {@code chartstream bench store}: index build, kNN/BM25/filtered-kNN latency and recall of the Lucene store. */
@Command(name = "store", mixinStandardHelpOptions = true,
    description = {"Build an embedded Lucene store of N synthetic chunks (clustered unit vectors and pseudo-word text,",
        "deterministic per seed) through the store's own write path, then measure kNN, BM25 and patient-filtered",
        "kNN latency and recall@10 against an exact scan. Needs about chunks x dimension x 4 bytes of heap for",
        "the exact-scan copy (1M x 384: 1.5 GB; run with CHARTSTREAM_JAVA_OPTS=-Xmx8g)."})
public final class StoreBenchCommand extends BenchSubcommand {


  @Option(names = "--chunks", description = "chunks to index (default: ${DEFAULT-VALUE})", defaultValue = "100000")
  int chunks;

  @Option(names = "--dimension", description = "vector dimension (default: ${DEFAULT-VALUE})", defaultValue = "384")
  int dimension;

  @Option(names = "--clusters", description = "cluster centroids (default: ${DEFAULT-VALUE})", defaultValue = "1000")
  int clusters;

  @Option(names = "--noise", description = "per-component Gaussian noise around a centroid before normalising"
      + " (default: ${DEFAULT-VALUE})", defaultValue = "0.04")
  double noise;

  @Option(names = "--queries", description = "measured queries per search kind, at least "
      + StoreBench.MIN_QUERIES + " (default: ${DEFAULT-VALUE})", defaultValue = "500")
  int queries;

  @Option(names = "--warmup", description = "unmeasured queries per kind first (default: ${DEFAULT-VALUE})",
      defaultValue = "100")
  int warmup;

  @Option(names = "--threads", description = "indexing threads (default: ${DEFAULT-VALUE})", defaultValue = "2")
  int threads;

  @Option(names = "--commit-every", description = "chunks per committed batch (default: ${DEFAULT-VALUE})",
      defaultValue = "50000")
  int commitEvery;

  @Option(names = "--seed", description = "corpus seed (default: ${DEFAULT-VALUE})", defaultValue = "42")
  long seed;

  @Option(names = "--dir", description = "build the index here and keep it (must be empty or absent);"
      + " default: a temporary directory, deleted afterwards")
  Path dir;

  @Option(names = "--json", description = "print the figures as one JSON object (the last stdout line)")
  boolean json;

  @Override
  public Integer call() throws Exception {
    StoreBench.Settings settings;
    try {
      settings = new StoreBench.Settings(chunks, dimension, clusters, noise, queries, warmup, threads, commitEvery,
          seed, dir);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    StoreBench.Result result = StoreBench.run(settings, spec.commandLine().getErr());
    spec.commandLine().getOut().println(json ? result.toJson() : result.toText());
    spec.commandLine().getOut().flush();
    return 0;
  }

  /** {@code java -cp app/target/chartstream-app.jar org.chartstream.app.bench.StoreBenchCommand [options]}. */
  public static void main(String[] args) {
    System.exit(new CommandLine(new StoreBenchCommand()).execute(args));
  }
}

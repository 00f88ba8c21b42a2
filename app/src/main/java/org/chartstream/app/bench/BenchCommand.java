package org.chartstream.app.bench;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code chartstream bench …}: one subcommand per benchmark; each prints its figures as a JSON last line with --json. */
@Command(name = "bench", mixinStandardHelpOptions = true,
    description = {"Measure a part of the system on this machine. Each benchmark prints progress on stderr and its",
        "figures on stdout; with --json the last stdout line is one JSON object. docs/PERFORMANCE.md has the",
        "recorded runs."},
    subcommands = {StoreBenchCommand.class, IngestBenchCommand.class, FreshnessBenchCommand.class, QueryBenchCommand.class,
        LoadBenchCommand.class, ScaleOutBenchCommand.class})
public final class BenchCommand implements Runnable {

  @Spec
  CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}

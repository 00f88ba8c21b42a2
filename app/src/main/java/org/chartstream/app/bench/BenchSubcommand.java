package org.chartstream.app.bench;

import java.util.concurrent.Callable;
import org.chartstream.app.Main;
import org.chartstream.runtime.config.ChartstreamConfig;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** What every {@code chartstream bench …} subcommand has: its own command spec and the configuration {@code Main} loaded. */
abstract class BenchSubcommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    /** The configuration {@code Main} loaded (file, environment, {@code -D} options). */
    final ChartstreamConfig config() {
        return ((Main) spec.root().userObject()).config();
    }
}

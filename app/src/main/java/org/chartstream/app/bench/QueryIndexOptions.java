package org.chartstream.app.bench;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The options {@code bench query} and {@code bench load} share: where their index lives and how their clients read replies. */
final class QueryIndexOptions {
    @Option(names = "--index-dir", description = {"keep the index here and reuse it in later runs with the same --chunks",
            "(default: a temporary index, built and deleted by each run)"})
    Path indexDir;

    @Option(names = "--shared-reply-reader", description = {"the clients share one query client and its one reply-topic consumer, as one",
            "upstream service would (default: a client and consumer each, every reply read by every client)"})
    boolean sharedReplyReader;
}

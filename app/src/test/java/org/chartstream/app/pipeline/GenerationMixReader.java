package org.chartstream.app.pipeline;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongPredicate;
import java.util.stream.Collectors;
import org.chartstream.core.store.HybridStore;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.SearchHit;
import org.chartstream.core.store.TableRef;

/**
 * A reader that polls searches against the store from its own thread and records every sign of two generations
 * being visible at once: one search returning chunks of two generations, the generation going backwards, or a
 * row count the caller says is impossible (half a snapshot).
 */
final class GenerationMixReader implements AutoCloseable {
    private final HybridStore store;
    private final TableRef table;
    private final float[] queryVector;
    private final LongPredicate allowedRowCount;
    private final List<String> violations = java.util.Collections.synchronizedList(new ArrayList<>());
    private final Set<Long> generationsSeen = java.util.Collections.synchronizedSet(new TreeSet<>());
    private final Set<Long> rowCountsSeen = java.util.Collections.synchronizedSet(new TreeSet<>());
    private final AtomicLong polls = new AtomicLong();
    private final Thread thread;
    private volatile boolean running = true;

    GenerationMixReader(HybridStore store, TableRef table, float[] queryVector, LongPredicate allowedRowCount) {
        this.store = store;
        this.table = table;
        this.queryVector = queryVector;
        this.allowedRowCount = allowedRowCount;
        this.thread = new Thread(this::run, "generation-mix-reader");
    }

    GenerationMixReader start() {
        thread.start();
        return this;
    }

    private void run() {
        long highest = 0;
        RetrievalFilter filter = RetrievalFilter.forTables(table.table());
        while (running) {
            long rows = store.countRows(table);
            rowCountsSeen.add(rows);
            if (!allowedRowCount.test(rows)) {
                violations.add("row count " + rows);
            }
            for (List<SearchHit> hits : List.of(store.lexicalSearch("chartnote", 50, filter),
                    store.vectorSearch(queryVector, 50, filter))) {
                Set<Long> generations = hits.stream().map(h -> h.chunk().generation()).collect(Collectors.toCollection(TreeSet::new));
                if (generations.size() > 1) {
                    violations.add("one search returned generations " + generations);
                }
                for (long g : generations) {
                    if (g < highest) {
                        violations.add("generation " + g + " after " + highest);
                    }
                    highest = Math.max(highest, g);
                }
                generationsSeen.addAll(generations);
            }
            polls.incrementAndGet();
            try {
                Thread.sleep(1); // often enough to catch a half-published state, without starving the pipeline
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    long polls() {
        return polls.get();
    }

    List<String> violations() {
        synchronized (violations) {
            return List.copyOf(violations);
        }
    }

    Set<Long> generationsSeen() {
        synchronized (generationsSeen) {
            return Set.copyOf(generationsSeen);
        }
    }

    Set<Long> rowCountsSeen() {
        synchronized (rowCountsSeen) {
            return Set.copyOf(rowCountsSeen);
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(30_000);
    }
}

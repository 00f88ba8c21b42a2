package org.chartstream.app.cli;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import sun.misc.Signal;

/**
 * How {@code run} is stopped. The JVM's own answer to SIGTERM (a service manager, {@code kill}), SIGINT (Ctrl-C) or
 * SIGHUP (a closed terminal) runs the shutdown hooks and halts as soon as they return, exit code 128 + signal, while
 * the main thread is still closing the pipeline: Kafka Streams tasks were cut off without their checkpoints (the
 * next start found them corrupted and restored every store from its changelog) and the embedded PostgreSQL was
 * stopped by its own hook under a connected Debezium. Here those signals only ask the main thread to stop the
 * pipeline in order; the process then exits 0 after a clean stop. A stop that has not finished within the bound
 * halts the process with exit code 1. Any other JVM shutdown waits, within the bound, for the same ordered stop.
 */
final class StopSignals {
    private static final List<String> SIGNALS = List.of("TERM", "INT", "HUP");
    private final Duration bound;
    private final Consumer<String> progress;
    private final CountDownLatch requested = new CountDownLatch(1);
    private final CountDownLatch finished = new CountDownLatch(1);
    private Thread interruptible;

    private StopSignals(Duration bound, Consumer<String> progress) {
        this.bound = bound;
        this.progress = progress;
    }

    /** Takes SIGTERM, SIGINT and SIGHUP over from the JVM (those it may handle) and adds a shutdown hook. */
    static StopSignals install(Duration bound, Consumer<String> progress) {
        StopSignals signals = new StopSignals(bound, progress);
        for (String name : SIGNALS) {
            try {
                Signal.handle(new Signal(name), s -> signals.request("SIG" + s.getName()));
            } catch (IllegalArgumentException e) {
                // ignored by the process that started this JVM (nohup) or reserved (-Xrs): the shutdown hook remains
            }
        }
        Runtime.getRuntime().addShutdownHook(new Thread(signals::stopBeforeExit, "chartstream-stop"));
        return signals;
    }

    /** Interrupts {@code thread} when a stop is asked for (while it starts the pipeline or waits for it, say). */
    synchronized void interruptOnRequest(Thread thread) {
        interruptible = thread;
        if (requested.getCount() == 0) {
            thread.interrupt();
        }
    }

    /** Blocks until a stop is asked for. */
    void awaitRequest() {
        try {
            requested.await();
        } catch (InterruptedException e) {
            // the request interrupts the waiting thread
        }
    }

    boolean requested() {
        return requested.getCount() == 0;
    }

    /** Called by the stopping thread before it stops anything: no interrupt reaches it any more, none is pending. */
    synchronized void stopping() {
        interruptible = null;
        Thread.interrupted();
    }

    /** The stop has finished: a shutdown hook waiting for it returns. */
    void finished() {
        finished.countDown();
    }

    private synchronized void request(String why) {
        if (requested.getCount() == 0) {
            return;
        }
        progress.accept(why + " received; stopping (at most " + bound.toSeconds() + " s)");
        requested.countDown();
        if (interruptible != null) {
            interruptible.interrupt();
        }
        Thread deadline = new Thread(this::haltIfNotFinished, "chartstream-stop-deadline");
        deadline.setDaemon(true);
        deadline.start();
    }

    private void haltIfNotFinished() {
        try {
            if (!finished.await(bound.toMillis(), TimeUnit.MILLISECONDS)) {
                progress.accept("the pipeline did not stop within " + bound.toSeconds() + " s; halting");
                Runtime.getRuntime().halt(1);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void stopBeforeExit() {
        if (finished.getCount() == 0) {
            return; // the run has stopped (or never started) and is exiting
        }
        request("JVM shutdown");
        try {
            finished.await(bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

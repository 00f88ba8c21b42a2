package org.chartstream.query.catchup;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.chartstream.schemas.PendingRequest;

/**
 * Holds a task's pipeline runs until the store replica has caught up with the index log as it stood when the task
 * started ({@link IndexCatchUp#sinceNow}), then starts them in the order they came, and every later one at once.
 * The requests are admitted and recorded pending meanwhile, so a crash loses none and a deadline that passes while
 * they wait still gets its {@code timeout} reply. Once open the gate stays open: the replica then follows the log as
 * it does on a single instance. Stream thread only.
 */
public final class CatchUpGate {
    private final BooleanSupplier caughtUp;
    private final Consumer<PendingRequest> start;
    private final List<PendingRequest> held = new ArrayList<>();
    private boolean open;

    /** @param start runs a request (on a worker) */
    public CatchUpGate(BooleanSupplier caughtUp, Consumer<PendingRequest> start) {
        this.caughtUp = caughtUp;
        this.start = start;
    }

    /** Runs the request now if the replica has caught up (after any held before it), else holds it. */
    public void start(PendingRequest p) {
        if (release()) {
            start.accept(p);
        } else {
            held.add(p);
        }
    }

    /** Starts every held request, oldest first, once the replica has caught up; says whether it has. */
    public boolean release() {
        if (!open) {
            open = caughtUp.getAsBoolean();
            if (!open) {
                return false;
            }
        }
        List<PendingRequest> waiting = List.copyOf(held);
        held.clear();
        waiting.forEach(start);
        return true;
    }

    /** Requests waiting for the replica to catch up. */
    public int held() {
        return held.size();
    }
}

package org.chartstream.query.admission;

/**
 * A concurrency limit that follows measured capacity: additive increase, multiplicative decrease on latency. Each
 * finished request is a sample of how long it took from admission. The baseline is the lowest recent latency (what a
 * request costs when nothing queues in front of it); a sample more than {@link #TOLERANCE} times the baseline means
 * requests are queueing behind each other, and the limit shrinks by {@link #BACKOFF}. A sample within it grows the
 * limit by one per limit's worth of samples (as TCP's congestion window does), but only while the limit is in use:
 * an idle instance keeps its limit where it is. The limit stays within [min, max] and starts at max: until requests
 * have been measured it admits as many as configured (what the fixed limit did), then backs off to what the
 * measurements allow. Pure, no clock, no threads.
 */
public final class AimdLimit {
    /**
     * Latency up to twice the unloaded one counts as unloaded: the target of issue 17 is an admitted p99 at most twice
     * the one-client p99 (tuned with {@code bench load}, the clustered 10,000-chunk corpus, two workers).
     */
    static final double TOLERANCE = 2.0;
    /** The usual AIMD back-off (TCP Reno halves; a latency signal is noisier, so a gentler step). */
    static final double BACKOFF = 0.9;
    /**
     * How fast the baseline forgets an old minimum, per sample: it doubles in about 70 samples unless a faster request
     * renews it, so a larger index or a slower model becomes the new baseline instead of reading as overload for good.
     */
    static final double BASELINE_DRIFT = 0.01;

    private final int min;
    private final int max;
    private double limit;
    private double baselineMs = Double.NaN;

    public AimdLimit(int min, int max) {
        if (min < 1) {
            throw new IllegalArgumentException("admission limit lower bound must be at least 1, got " + min);
        }
        if (min > max) {
            throw new IllegalArgumentException("admission limit lower bound " + min + " must be at most the upper bound " + max);
        }
        this.min = min;
        this.max = max;
        this.limit = max;
    }

    /** Requests that may be in flight now. */
    public int limit() {
        return (int) limit;
    }

    /**
     * One request finished.
     *
     * @param latencyMs admission to its result
     * @param inFlight  requests in flight when it finished, itself included
     */
    public void onSample(double latencyMs, int inFlight) {
        baselineMs = Double.isNaN(baselineMs) ? latencyMs : Math.min(latencyMs, baselineMs * (1 + BASELINE_DRIFT));
        if (latencyMs > TOLERANCE * baselineMs) {
            limit = Math.max(min, limit * BACKOFF);
        } else if (2 * inFlight >= limit) {
            limit = Math.min(max, limit + 1 / limit);
        }
    }
}

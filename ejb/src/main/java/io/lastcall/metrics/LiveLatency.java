package io.lastcall.metrics;

import java.util.OptionalLong;
import org.HdrHistogram.Histogram;

/**
 * The latencies of one {@link LatencyClass} over the last window, as HdrHistograms in slices: a
 * slice older than the window is emptied and used again, so the figures follow the model when it
 * speeds up or slows down. Times are passed in (epoch ms), so it is tested without a clock.
 * Thread-safe; every call is short.
 */
public final class LiveLatency {

    /** Latencies are recorded in ms up to an hour (longer ones count as an hour), to 2 significant digits. */
    static final long HIGHEST_MS = 3_600_000;
    private static final int DIGITS = 2;

    private final long sliceMs;
    private final Histogram[] slices;
    private final long[] sliceStarts;
    private final Histogram window = new Histogram(HIGHEST_MS, DIGITS);

    public LiveLatency(long windowMs, int sliceCount) {
        if (sliceCount < 1 || windowMs < sliceCount) {
            throw new IllegalArgumentException("a window of " + windowMs + " ms cannot have " + sliceCount + " slices");
        }
        this.sliceMs = windowMs / sliceCount;
        this.slices = new Histogram[sliceCount];
        this.sliceStarts = new long[sliceCount];
        for (int i = 0; i < sliceCount; i++) {
            slices[i] = new Histogram(HIGHEST_MS, DIGITS);
            sliceStarts[i] = Long.MIN_VALUE;
        }
    }

    /** Records one call's latency, ended at {@code now}. */
    public synchronized void record(long now, long latencyMs) {
        slice(now).recordValue(Math.min(HIGHEST_MS, Math.max(0, latencyMs)));
    }

    /** How many calls ended in the window that ends at {@code now}. */
    public synchronized long count(long now) {
        return sum(now).getTotalCount();
    }

    /** The {@code percentile} (0–100) of the window that ends at {@code now}, in ms; 0 with no calls. */
    public synchronized long percentile(long now, double percentile) {
        return sum(now).getValueAtPercentile(percentile);
    }

    /**
     * The {@code percentile} (0–100) of the newest answers, in ms: those of the newest slices of
     * the window that together hold at least {@code answers}; empty when the whole window holds
     * fewer. A busy class is judged on its last second or two, so the figure follows a model whose
     * latency drifts; a quiet one on as much of the window as it takes.
     */
    public synchronized OptionalLong recentPercentile(long now, double percentile, long answers) {
        Histogram recent = newest(now, answers);
        return recent.getTotalCount() < Math.max(1, answers) ? OptionalLong.empty()
                : OptionalLong.of(recent.getValueAtPercentile(percentile));
    }

    /** Adds the window that ends at {@code now} to {@code into} (to sum several classes). */
    public synchronized void addTo(long now, Histogram into) {
        into.add(sum(now));
    }

    /** A histogram to sum windows into, of the same range and precision. */
    public static Histogram emptyHistogram() {
        return new Histogram(HIGHEST_MS, DIGITS);
    }

    /** The whole window that ends at {@code now}. */
    private Histogram sum(long now) {
        return newest(now, Long.MAX_VALUE);
    }

    /**
     * The newest slices of the window that ends at {@code now}, newest first, until they hold at
     * least {@code answers} (or the window ends), summed into {@link #window}.
     */
    private Histogram newest(long now, long answers) {
        window.reset();
        long newest = Math.floorDiv(now, sliceMs) * sliceMs;
        for (int k = 0; k < slices.length && window.getTotalCount() < answers; k++) {
            long start = newest - k * sliceMs;
            int i = index(start);
            if (sliceStarts[i] == start) {
                window.add(slices[i]);
            }
        }
        return window;
    }

    private int index(long sliceStart) {
        return (int) Math.floorMod(Math.floorDiv(sliceStart, sliceMs), (long) slices.length);
    }

    private Histogram slice(long now) {
        long start = Math.floorDiv(now, sliceMs) * sliceMs;
        int i = index(start);
        if (sliceStarts[i] != start) {
            slices[i].reset();
            sliceStarts[i] = start;
        }
        return slices[i];
    }
}

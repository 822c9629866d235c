package io.lastcall.job;

/**
 * The deadline arithmetic, in one place (docs/design.md §3.3). All values are epoch or duration
 * milliseconds; every subtraction saturates instead of overflowing.
 */
public final class Deadline {

    private Deadline() {
    }

    /**
     * Milliseconds left before dispatch must not happen any more:
     * {@code expires_at − now − clock_uncertainty_ms − (min_execution_ms if LATEST_USEFUL_COMPLETION)}.
     * A value ≤ 0 means: do not dispatch.
     */
    public static long remainingForDispatch(long expiresAt, long now, long clockUncertaintyMs,
            DeadlineSemantics semantics, long minExecutionMs) {
        long remaining = minus(minus(expiresAt, now), Math.max(0, clockUncertaintyMs));
        if (semantics == DeadlineSemantics.LATEST_USEFUL_COMPLETION) {
            remaining = minus(remaining, Math.max(0, minExecutionMs));
        }
        return remaining;
    }

    public static boolean mayDispatch(long expiresAt, long now, long clockUncertaintyMs,
            DeadlineSemantics semantics, long minExecutionMs) {
        return remainingForDispatch(expiresAt, now, clockUncertaintyMs, semantics, minExecutionMs) > 0;
    }

    /**
     * The per-message TTL to publish with: the job's remaining dispatchable lifetime (what
     * {@link #remainingForDispatch} gives), capped by the queue's TTL cap, or 0 when nothing is
     * left. So a message expires in the broker exactly when the gate would refuse it, never after.
     * RabbitMQ reads an expiration of "0" as "expire at once" and a JMS TTL of 0 as "never", so a 0
     * here must mean "do not publish".
     */
    public static long publishTtlMs(long remainingForDispatchMs, long ttlCapMs) {
        if (remainingForDispatchMs < 1) {
            return 0;
        }
        return ttlCapMs > 0 ? Math.min(remainingForDispatchMs, ttlCapMs) : remainingForDispatchMs;
    }

    /** Whether a result finished at {@code finishedAt} came too late to be useful. */
    public static boolean isLate(long expiresAt, long finishedAt, DeadlineSemantics semantics) {
        return semantics == DeadlineSemantics.LATEST_USEFUL_COMPLETION && finishedAt > expiresAt;
    }

    /** a − b, saturated at the long range. */
    static long minus(long a, long b) {
        long r = a - b;
        // overflow iff a and b have different signs and r's sign differs from a's
        if (((a ^ b) & (a ^ r)) < 0) {
            return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return r;
    }
}

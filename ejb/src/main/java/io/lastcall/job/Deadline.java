package io.lastcall.job;

import java.util.Objects;

/**
 * A job's deadline, whole: when it expires (epoch ms), what the deadline means, and the minimum
 * execution a {@code LATEST_USEFUL_COMPLETION} job reserves — with all the arithmetic on it, in
 * this one place (docs/design.md §3.3). It travels whole from ingress to the request's header.
 * Every subtraction saturates instead of overflowing; negative margins count as zero.
 */
public record Deadline(long expiresAt, DeadlineSemantics semantics, long minExecutionMs) {

    public Deadline {
        Objects.requireNonNull(semantics, "deadline semantics");
    }

    /** A deadline by which the call must have started. */
    public static Deadline latestStart(long expiresAt) {
        return new Deadline(expiresAt, DeadlineSemantics.LATEST_START, 0);
    }

    /**
     * Milliseconds left before dispatch must not happen any more:
     * {@code expires_at − now − clock_uncertainty_ms − (min_execution_ms if LATEST_USEFUL_COMPLETION)}.
     * A value ≤ 0 means: do not dispatch.
     */
    public long remainingForDispatch(long now, long clockUncertaintyMs) {
        return minus(minus(minus(expiresAt, now), Math.max(0, clockUncertaintyMs)), reserved());
    }

    public boolean mayDispatch(long now, long clockUncertaintyMs) {
        return remainingForDispatch(now, clockUncertaintyMs) > 0;
    }

    /** The last instant (epoch ms) at which a dispatch may still be decided: one ms before it is too late. */
    public long lastDispatchAt(long clockUncertaintyMs) {
        return minus(minus(expiresAt, Math.max(0, clockUncertaintyMs)), reserved());
    }

    /** Whether an answer that arrived at {@code answeredAt} came too late to be useful. */
    public boolean isLateAt(long answeredAt) {
        return semantics == DeadlineSemantics.LATEST_USEFUL_COMPLETION && answeredAt > expiresAt;
    }

    /**
     * The timeout of a call that starts at {@code startAt}: the workload's maximum execution; for
     * {@code LATEST_USEFUL_COMPLETION} no longer than the deadline plus the late grace. At least 1.
     */
    public long callTimeoutMs(long startAt, long maxExecutionMs, long lateGraceMs) {
        if (semantics == DeadlineSemantics.LATEST_USEFUL_COMPLETION) {
            return Math.max(1, Math.min(maxExecutionMs, Math.max(0, minus(expiresAt, startAt)) + lateGraceMs));
        }
        return Math.max(1, maxExecutionMs);
    }

    /** When the call handed off at {@code handedOffAt} must have ended: the handoff plus its timeout. */
    public long resultDueBy(long handedOffAt, long maxExecutionMs, long lateGraceMs) {
        return handedOffAt + callTimeoutMs(handedOffAt, maxExecutionMs, lateGraceMs);
    }

    private long reserved() {
        return semantics == DeadlineSemantics.LATEST_USEFUL_COMPLETION ? Math.max(0, minExecutionMs) : 0;
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

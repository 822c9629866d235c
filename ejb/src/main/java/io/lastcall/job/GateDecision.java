package io.lastcall.job;

/**
 * What the final gate does with one job at one instant (docs/design.md §3.3), in the order the spec gives:
 * expired, canceled, superseded, budget, otherwise claim. Pure: the caller holds the row lock.
 */
public enum GateDecision {
    /** terminal EXPIRED_NOT_STARTED, reason BEFORE_DISPATCH */
    EXPIRE,
    CANCEL,
    SUPERSEDE,
    DENY_BUDGET,
    /** grant the single dispatch claim */
    CLAIM,
    /** already claimed, handed off or ended: nothing to do, never a second claim */
    NOT_CLAIMABLE,
    /** lifetime left but no dispatch permit held: try again later */
    NO_PERMIT,
    /** the backend is paused, or its rate limits are full, until before the job's last dispatch instant: wait, then try again */
    WAIT_FOR_BACKEND,
    /** terminal EXPIRED_NOT_STARTED, reason BACKEND_PAUSED: the backend's pause outlasts the job's lifetime */
    EXPIRE_BACKEND_PAUSED,
    /** terminal EXPIRED_NOT_STARTED, reason RATE_LIMITED: the backend's per-minute limits have no room before the job's last dispatch instant */
    EXPIRE_RATE_LIMITED,
    /** terminal EXPIRED_NOT_STARTED, reason PREDICTED_LATE: the model's live latency says the answer would come after the deadline */
    EXPIRE_PREDICTED_LATE;

    public static GateDecision decide(JobState state, long remainingForDispatchMs, boolean cancelRequested,
            boolean superseded, boolean budgetFits, boolean permitHeld) {
        if (!state.isPreClaim()) {
            return NOT_CLAIMABLE;
        }
        if (remainingForDispatchMs <= 0) {
            return EXPIRE;
        }
        if (cancelRequested) {
            return CANCEL;
        }
        if (superseded) {
            return SUPERSEDE;
        }
        if (!permitHeld) {
            return NO_PERMIT;
        }
        if (!budgetFits) {
            return DENY_BUDGET;
        }
        return CLAIM;
    }

    /**
     * A claim, given that the job's backend asked not to be called before {@code pausedUntil}
     * (epoch ms; 0 for no pause): it stands once the pause is over, waits for its end when that
     * comes before {@code lastDispatchAt}, and is refused for good otherwise.
     */
    public GateDecision givenPause(long pausedUntil, long now, long lastDispatchAt) {
        if (this != CLAIM || pausedUntil <= now) {
            return this;
        }
        return pauseOutlasts(pausedUntil, now, lastDispatchAt) ? EXPIRE_BACKEND_PAUSED : WAIT_FOR_BACKEND;
    }

    /**
     * A claim, given that the backend's rate limits have room for it only at {@code readyAt} (epoch
     * ms; 0: room now): it waits for that when it comes before {@code lastDispatchAt}, and is refused
     * for good otherwise.
     */
    public GateDecision givenRateLimit(long readyAt, long now, long lastDispatchAt) {
        if (this != CLAIM || readyAt <= now) {
            return this;
        }
        return pauseOutlasts(readyAt, now, lastDispatchAt) ? EXPIRE_RATE_LIMITED : WAIT_FOR_BACKEND;
    }

    /**
     * A claim, given whether the model's live latency forecast says the answer would arrive after
     * the job's useful deadline and whether such a forecast refuses ({@code refuse}: predictive
     * admission on; in shadow it is only recorded).
     */
    public GateDecision givenForecast(boolean predictedLate, boolean refuse) {
        return this == CLAIM && predictedLate && refuse ? EXPIRE_PREDICTED_LATE : this;
    }

    /**
     * An expiry of a job whose last dispatchable instant came while it waited for its backend's
     * turn: the backend's reason instead of BEFORE_DISPATCH — its pause if that outlasted the job
     * ({@code pauseOutlasted}), else its per-minute limits if it has any (the job waited for room
     * that did not come in time: on several servers sharing one limit, another server's claims can
     * take each refill first). Anything else stands.
     */
    public GateDecision givenWaitedForBackend(boolean pauseOutlasted, boolean rateLimited) {
        if (this != EXPIRE) {
            return this;
        }
        if (pauseOutlasted) {
            return EXPIRE_BACKEND_PAUSED;
        }
        return rateLimited ? EXPIRE_RATE_LIMITED : EXPIRE;
    }

    /** Whether a backend's pause, still running at {@code now}, reaches the job's last dispatch instant: the job cannot wait it out. */
    public static boolean pauseOutlasts(long pausedUntil, long now, long lastDispatchAt) {
        return pausedUntil > now && pausedUntil >= lastDispatchAt;
    }
}

package io.lastcall.job;

import java.util.Arrays;
import java.util.List;

/**
 * Every way a job can end: a terminal {@link JobState} and its reason, as one value. It is the
 * only argument {@link Job#end} takes, so the reasons in the ledger are exactly these (the
 * the outcome table in docs/api.md lists the same ones; {@code OutcomeTest} keeps the two in step).
 */
public enum Outcome {
    /** a 2xx answer before the useful deadline (or any time for LATEST_START) */
    COMPLETED_ON_TIME(JobState.COMPLETED, "ON_TIME"),
    /** a 2xx answer after a LATEST_USEFUL_COMPLETION deadline: usage and cost kept, result per policy */
    COMPLETED_LATE(JobState.COMPLETED, "LATE"),
    /** a non-2xx status that is not documented as "not processed": the call may have run; exposure retained */
    FAILED_HTTP_ERROR(JobState.EXECUTION_FAILED, "HTTP_ERROR"),
    /** every attempt was refused as not processed or never reached the backend, up to max-attempts */
    FAILED_ATTEMPTS_EXHAUSTED(JobState.EXECUTION_FAILED, "ATTEMPTS_EXHAUSTED"),
    /** timeout or broken connection after the request was written */
    UNKNOWN_NO_RESULT(JobState.OUTCOME_UNKNOWN, "NO_RESULT"),
    /** the reconciler found a handoff without a result after the call's timeout plus grace */
    UNKNOWN_RESULT_OVERDUE(JobState.OUTCOME_UNKNOWN, "RESULT_OVERDUE"),
    /** the server that handed it off restarted: that incarnation can no longer receive the result */
    UNKNOWN_SERVER_RESTARTED(JobState.OUTCOME_UNKNOWN, "SERVER_RESTARTED"),
    /** the server that handed it off stopped renewing its lease; another server closed the handoff */
    UNKNOWN_SERVER_LOST(JobState.OUTCOME_UNKNOWN, "SERVER_LOST"),
    EXPIRED_BEFORE_PUBLISH(JobState.EXPIRED_NOT_STARTED, "BEFORE_PUBLISH"),
    /** dead-lettered as expired, or found overdue while queued */
    EXPIRED_IN_BROKER(JobState.EXPIRED_NOT_STARTED, "IN_BROKER"),
    /** refused at the final gate, at the handoff check, or a retry that fits no tier */
    EXPIRED_BEFORE_DISPATCH(JobState.EXPIRED_NOT_STARTED, "BEFORE_DISPATCH"),
    /**
     * its backend asked not to be called (a 429's Retry-After, or its rate-limit reset) until after
     * the job's last dispatch instant; nothing was written
     */
    EXPIRED_BACKEND_PAUSED(JobState.EXPIRED_NOT_STARTED, "BACKEND_PAUSED"),
    /** the backend's requests- or tokens-per-minute had no room for it before its last dispatch instant */
    EXPIRED_RATE_LIMITED(JobState.EXPIRED_NOT_STARTED, "RATE_LIMITED"),
    /**
     * a LATEST_USEFUL_COMPLETION job the backend's live p95 latency says cannot be answered by its
     * deadline (predictive admission on): refused before any request, so no money goes on a late answer
     */
    EXPIRED_PREDICTED_LATE(JobState.EXPIRED_NOT_STARTED, "PREDICTED_LATE"),
    /** found overdue by the reconciler before it was ever queued or after a revoked claim */
    EXPIRED_RECONCILED(JobState.EXPIRED_NOT_STARTED, "RECONCILED"),
    CANCELED(JobState.CANCELED, "CANCELED"),
    /** a newer source revision of its subject was announced */
    SUPERSEDED(JobState.SUPERSEDED, "SUPERSEDED"),
    BUDGET_DENIED(JobState.BUDGET_DENIED, "BUDGET_DENIED"),
    QUARANTINED_DEAD_LETTER_REJECTED(JobState.QUARANTINED, "DEAD_LETTER_REJECTED"),
    QUARANTINED_DEAD_LETTER_MAXLEN(JobState.QUARANTINED, "DEAD_LETTER_MAXLEN"),
    QUARANTINED_DEAD_LETTER_DELIVERY_LIMIT(JobState.QUARANTINED, "DEAD_LETTER_DELIVERY_LIMIT"),
    QUARANTINED_DEAD_LETTER_OTHER(JobState.QUARANTINED, "DEAD_LETTER_OTHER");

    private final JobState state;
    private final String reason;

    Outcome(JobState state, String reason) {
        if (!state.isTerminal()) {
            throw new IllegalArgumentException(state + " is not terminal");
        }
        this.state = state;
        this.reason = reason;
    }

    public JobState state() {
        return state;
    }

    /** The machine-readable reason stored with the job. */
    public String reason() {
        return reason;
    }

    /** The outcome of a message the broker dead-lettered for {@code deathReason} other than expiry. */
    public static Outcome deadLettered(String deathReason) {
        return switch (deathReason == null ? "" : deathReason) {
            case "rejected" -> QUARANTINED_DEAD_LETTER_REJECTED;
            case "maxlen" -> QUARANTINED_DEAD_LETTER_MAXLEN;
            case "delivery_limit" -> QUARANTINED_DEAD_LETTER_DELIVERY_LIMIT;
            default -> QUARANTINED_DEAD_LETTER_OTHER;
        };
    }

    /** The outcome a terminal state and reason were written by; empty for anything else. */
    public static java.util.Optional<Outcome> of(JobState state, String reason) {
        return Arrays.stream(values()).filter(o -> o.state == state && o.reason.equals(reason)).findFirst();
    }

    /** {@code STATE/REASON}, as the API and the documentation write it. */
    public String key() {
        return state + "/" + reason;
    }

    /** Every {@code STATE/REASON} pair, for documentation and its test. */
    public static List<String> table() {
        return Arrays.stream(values()).map(Outcome::key).toList();
    }
}

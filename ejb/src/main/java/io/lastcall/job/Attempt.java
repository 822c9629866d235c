package io.lastcall.job;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.Lob;
import jakarta.persistence.Table;
import java.math.BigDecimal;

/** One dispatch attempt of a job: created by the claim, before anything leaves. */
@Entity
@Table(name = "lc_attempt", indexes = @Index(name = "lc_attempt_job", columnList = "job_id"))
public class Attempt {

    /**
     * CLAIMED → HANDED_OFF → COMPLETED | FAILED | UNKNOWN. A request that was never written ends
     * NOT_SENT (connect failed, or the handoff authorization lapsed before the write) and counts
     * toward max-attempts; a claim lost in a crash before its handoff ends REVOKED and does not.
     */
    public enum State { CLAIMED, HANDED_OFF, COMPLETED, FAILED, UNKNOWN, NOT_SENT, REVOKED }

    @Id
    @Column(name = "attempt_id", length = 64)
    private String attemptId;

    @Column(name = "job_id", length = 128, nullable = false)
    private String jobId;

    @Column(name = "workload", length = 64, nullable = false)
    private String workload;

    @Column(name = "generation", nullable = false)
    private long generation;

    @Enumerated(EnumType.STRING)
    @Column(name = "state", length = 16, nullable = false)
    private State state;

    @Column(name = "estimate", precision = 19, scale = 6, nullable = false)
    private BigDecimal estimate;

    @Column(name = "estimate_revision", length = 64, nullable = false)
    private String estimateRevision;

    /** What is held against the budget: the estimate until settled, then 0 (or kept if unknown). */
    @Column(name = "reserved", precision = 19, scale = 6, nullable = false)
    private BigDecimal reserved;

    @Column(name = "claimed_at", nullable = false)
    private long claimedAt;
    @Column(name = "handed_off_at")
    private Long handedOffAt;
    @Column(name = "finished_at")
    private Long finishedAt;
    @Column(name = "check_to_handoff_ms")
    private Long checkToHandoffMs;
    /** final check → first request byte written, monotonic clock */
    @Column(name = "check_to_last_byte_ms")
    private Long checkToLastByteMs;
    /** the server instance that claimed it, and that instance's boot: a restart can tell its own lost handoffs */
    @Column(name = "instance_id", length = 128)
    private String instanceId;
    @Column(name = "boot_id", length = 64)
    private String bootId;
    /** a 2xx answer without usage: the cost is the estimate, flagged, never zero */
    @Column(name = "usage_missing", nullable = false)
    private boolean usageMissing;

    @Column(name = "prompt_tokens")
    private Long promptTokens;
    @Column(name = "completion_tokens")
    private Long completionTokens;
    @Column(name = "cost", precision = 19, scale = 6)
    private BigDecimal cost;
    @Column(name = "late", nullable = false)
    private boolean late;
    @Column(name = "http_status")
    private Integer httpStatus;
    @Column(name = "error", length = 1000)
    private String error;
    /** A failure proven not to have run remotely (never written, or a "not processed" status): it may be retried. */
    @Column(name = "retryable", nullable = false)
    private boolean retryable;
    /** A refusal that paused the backend (Retry-After, a rate-limit reset): not counted against max-attempts. */
    @Column(name = "rate_limited", nullable = false)
    private boolean rateLimited;
    @Lob
    @Column(name = "result")
    private String result;

    protected Attempt() {
    }

    public Attempt(String attemptId, String jobId, String workload, long generation, BigDecimal estimate,
            String estimateRevision, long claimedAt, String instanceId, String bootId) {
        this.instanceId = instanceId;
        this.bootId = bootId;
        this.attemptId = attemptId;
        this.jobId = jobId;
        this.workload = workload;
        this.generation = generation;
        this.estimate = estimate;
        this.estimateRevision = estimateRevision;
        this.reserved = estimate;
        this.claimedAt = claimedAt;
        this.state = State.CLAIMED;
    }

    public void handedOff(long at, long checkToHandoff) {
        require(State.CLAIMED);
        state = State.HANDED_OFF;
        handedOffAt = at;
        checkToHandoffMs = checkToHandoff;
    }

    /** A claim lost before its handoff (a crash): released, and not counted as an attempt. */
    public void revoke(long at, String why) {
        require(State.CLAIMED);
        state = State.REVOKED;
        finishedAt = at;
        error = truncate(why);
        reserved = BigDecimal.ZERO;
    }

    /** The request was never written (connect failed, or the authorization lapsed): released. */
    public void notSent(long at, String why) {
        if (state != State.CLAIMED) {
            require(State.HANDED_OFF);
        }
        state = State.NOT_SENT;
        retryable = true;
        finishedAt = at;
        error = truncate(why);
        cost = BigDecimal.ZERO;
        reserved = BigDecimal.ZERO;
    }

    /** A 2xx answer. Without usage the cost is the estimate, flagged {@code usage_missing}. */
    public void completed(long at, Long prompt, Long completion, BigDecimal actualCost, boolean isLate,
            int status, String content, Long wireMs) {
        require(State.HANDED_OFF);
        state = State.COMPLETED;
        finishedAt = at;
        promptTokens = prompt;
        completionTokens = completion;
        usageMissing = actualCost == null;
        cost = actualCost == null ? estimate : actualCost;
        late = isLate;
        httpStatus = status;
        result = content;
        checkToLastByteMs = wireMs;
        reserved = BigDecimal.ZERO;
    }

    /** This refusal (or this write held back) was the backend pacing its callers: it does not count as an attempt. */
    public void rateLimited() {
        rateLimited = true;
    }

    /** Refused with a status the provider documents as "not processed": nothing billed, may be retried. */
    public void refusedNotProcessed(long at, int status, String why, Long wireMs) {
        require(State.HANDED_OFF);
        state = State.FAILED;
        retryable = true;
        finishedAt = at;
        httpStatus = status;
        error = truncate(why);
        checkToLastByteMs = wireMs;
        cost = BigDecimal.ZERO;
        reserved = BigDecimal.ZERO;
    }

    /** Any other error status after the request was written: it may have run, so the exposure stays reserved. */
    public void failedAfterWrite(long at, int status, String why, Long wireMs) {
        require(State.HANDED_OFF);
        state = State.FAILED;
        finishedAt = at;
        httpStatus = status;
        error = truncate(why);
        checkToLastByteMs = wireMs;
    }

    /** The remote side may have run it: the exposure stays reserved until reconciled. */
    public void unknown(long at, String why, Long wireMs) {
        require(State.HANDED_OFF);
        state = State.UNKNOWN;
        finishedAt = at;
        error = truncate(why);
        if (wireMs != null) {
            checkToLastByteMs = wireMs;
        }
    }

    /**
     * A 2xx answer that arrived after the attempt was closed as unknown (the reconciler or another
     * server did not wait for it): the outcome stands, but the usage and the cost are what the
     * provider bills, so they are recorded and the reservation becomes that cost.
     */
    public void answeredAfterClose(Long prompt, Long completion, BigDecimal actualCost, int status, Long wireMs) {
        require(State.UNKNOWN);
        promptTokens = prompt;
        completionTokens = completion;
        usageMissing = actualCost == null;
        cost = actualCost == null ? estimate : actualCost;
        reserved = BigDecimal.ZERO;
        httpStatus = status;
        error = truncate((error == null ? "" : error + "; ") + "an answer arrived after the attempt was closed:"
                + " its usage is recorded");
        if (wireMs != null) {
            checkToLastByteMs = wireMs;
        }
    }

    private void require(State expected) {
        if (state != expected) {
            throw new IllegalStateException("attempt " + attemptId + " is " + state + ", not " + expected);
        }
    }

    private static String truncate(String s) {
        return s == null || s.length() <= 1000 ? s : s.substring(0, 997) + "...";
    }

    public String getAttemptId() { return attemptId; }
    public String getJobId() { return jobId; }
    public String getWorkload() { return workload; }
    public boolean isRetryable() { return retryable; }
    public boolean isRateLimited() { return rateLimited; }
    public long getGeneration() { return generation; }
    public State getState() { return state; }
    public BigDecimal getEstimate() { return estimate; }
    public String getEstimateRevision() { return estimateRevision; }
    public BigDecimal getReserved() { return reserved; }
    public long getClaimedAt() { return claimedAt; }
    public Long getHandedOffAt() { return handedOffAt; }
    public Long getFinishedAt() { return finishedAt; }
    public Long getCheckToHandoffMs() { return checkToHandoffMs; }
    public Long getCheckToLastByteMs() { return checkToLastByteMs; }
    public String getInstanceId() { return instanceId; }
    public String getBootId() { return bootId; }
    public boolean isUsageMissing() { return usageMissing; }
    public Long getPromptTokens() { return promptTokens; }
    public Long getCompletionTokens() { return completionTokens; }
    public BigDecimal getCost() { return cost; }
    public boolean isLate() { return late; }
    public Integer getHttpStatus() { return httpStatus; }
    public String getError() { return error; }
    public String getResult() { return result; }
}

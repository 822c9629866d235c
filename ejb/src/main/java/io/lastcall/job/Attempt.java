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

    /** CLAIMED → HANDED_OFF → COMPLETED | FAILED | UNKNOWN; or CLAIMED → REVOKED. */
    public enum State { CLAIMED, HANDED_OFF, COMPLETED, FAILED, UNKNOWN, REVOKED }

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
    /** A failure proven not to have run remotely (not reached, 429/502/503/504): it may be retried. */
    @Column(name = "retryable", nullable = false)
    private boolean retryable;
    @Lob
    @Column(name = "result")
    private String result;

    protected Attempt() {
    }

    public Attempt(String attemptId, String jobId, String workload, long generation, BigDecimal estimate,
            String estimateRevision, long claimedAt) {
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

    public void handedOff(long at) {
        require(State.CLAIMED);
        state = State.HANDED_OFF;
        handedOffAt = at;
    }

    /** Never reached the wire: the reservation is released. */
    public void revoke(long at) {
        require(State.CLAIMED);
        state = State.REVOKED;
        finishedAt = at;
        reserved = BigDecimal.ZERO;
    }

    public void completed(long at, Long prompt, Long completion, BigDecimal actualCost, boolean isLate,
            int status, String content, long gapMs) {
        require(State.HANDED_OFF);
        state = State.COMPLETED;
        finishedAt = at;
        promptTokens = prompt;
        completionTokens = completion;
        cost = actualCost;
        late = isLate;
        httpStatus = status;
        result = content;
        checkToHandoffMs = gapMs;
        reserved = BigDecimal.ZERO;
    }

    public void failed(long at, Integer status, String why, boolean isRetryable, long gapMs) {
        require(State.HANDED_OFF);
        state = State.FAILED;
        retryable = isRetryable;
        finishedAt = at;
        httpStatus = status;
        error = truncate(why);
        checkToHandoffMs = gapMs;
        cost = BigDecimal.ZERO;
        reserved = BigDecimal.ZERO;
    }

    /** The remote side may have run it: the exposure stays reserved until reconciled. */
    public void unknown(long at, String why, Long gapMs) {
        require(State.HANDED_OFF);
        state = State.UNKNOWN;
        finishedAt = at;
        error = truncate(why);
        if (gapMs != null) {
            checkToHandoffMs = gapMs;
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
    public long getGeneration() { return generation; }
    public State getState() { return state; }
    public BigDecimal getEstimate() { return estimate; }
    public String getEstimateRevision() { return estimateRevision; }
    public BigDecimal getReserved() { return reserved; }
    public long getClaimedAt() { return claimedAt; }
    public Long getHandedOffAt() { return handedOffAt; }
    public Long getFinishedAt() { return finishedAt; }
    public Long getCheckToHandoffMs() { return checkToHandoffMs; }
    public Long getPromptTokens() { return promptTokens; }
    public Long getCompletionTokens() { return completionTokens; }
    public BigDecimal getCost() { return cost; }
    public boolean isLate() { return late; }
    public Integer getHttpStatus() { return httpStatus; }
    public String getError() { return error; }
    public String getResult() { return result; }
}

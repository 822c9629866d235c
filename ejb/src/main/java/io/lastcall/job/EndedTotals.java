package io.lastcall.job;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.math.BigDecimal;
import java.util.Objects;

/**
 * The figures of ended jobs that are no longer counted row by row, per workload, outcome, reason
 * and estimate revision: jobs, their estimates, attempts (and double claims among them), cost and
 * reservations. The reconciler rolls each ended job up into these rows (an ended job's figures
 * never change) before retention may delete it; the stats add them to the live rows, so counts,
 * spend, avoided exposure and the invariant hold at any ledger size and survive a purge. reason
 * and estimateRevision are "" for none (they are part of the key).
 */
@Entity
@Table(name = "lc_ended_totals")
@IdClass(EndedTotals.Key.class)
public class EndedTotals {

    /** The composite key. */
    public static class Key implements Serializable {
        private static final long serialVersionUID = 1L;
        public String workload;
        public String state;
        public String reason;
        public String estimateRevision;

        public Key() {
        }

        public Key(String workload, JobState state, String reason, String estimateRevision) {
            this.workload = workload;
            this.state = state.name();
            this.reason = reason == null ? "" : reason;
            this.estimateRevision = estimateRevision == null ? "" : estimateRevision;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && workload.equals(k.workload) && state.equals(k.state)
                    && reason.equals(k.reason) && estimateRevision.equals(k.estimateRevision);
        }

        @Override
        public int hashCode() {
            return Objects.hash(workload, state, reason, estimateRevision);
        }
    }

    @Id
    @Column(name = "workload", length = 64)
    private String workload;

    @Id
    @Column(name = "state", length = 32)
    private String state;

    @Id
    @Column(name = "reason", length = 64)
    private String reason;

    @Id
    @Column(name = "estimate_revision", length = 64)
    private String estimateRevision;

    @Column(name = "jobs", nullable = false)
    private long jobs;

    @Column(name = "estimate", nullable = false, precision = 19, scale = 6)
    private BigDecimal estimate = BigDecimal.ZERO;

    @Column(name = "attempts", nullable = false)
    private long attempts;

    @Column(name = "cost", nullable = false, precision = 19, scale = 6)
    private BigDecimal cost = BigDecimal.ZERO;

    @Column(name = "reserved", nullable = false, precision = 19, scale = 6)
    private BigDecimal reserved = BigDecimal.ZERO;

    @Column(name = "double_claims", nullable = false)
    private long doubleClaims;

    /** how many of these jobs the latency forecast named late, and what their attempts cost */
    @Column(name = "predicted_late_jobs", nullable = false)
    private long predictedLateJobs;

    @Column(name = "predicted_late_cost", nullable = false, precision = 19, scale = 6)
    private BigDecimal predictedLateCost = BigDecimal.ZERO;

    protected EndedTotals() {
    }

    public EndedTotals(Key key) {
        this.workload = key.workload;
        this.state = key.state;
        this.reason = key.reason;
        this.estimateRevision = key.estimateRevision;
    }

    /** Adds one ended job and its attempts' figures. */
    public void add(BigDecimal jobEstimate, long attemptCount, BigDecimal attemptCost, BigDecimal attemptReserved,
            long jobDoubleClaims, boolean predictedLate) {
        jobs++;
        if (predictedLate) {
            predictedLateJobs++;
            predictedLateCost = predictedLateCost.add(attemptCost);
        }
        estimate = estimate.add(jobEstimate);
        attempts += attemptCount;
        cost = cost.add(attemptCost);
        reserved = reserved.add(attemptReserved);
        doubleClaims += jobDoubleClaims;
    }

    public String getWorkload() { return workload; }
    public JobState getState() { return JobState.valueOf(state); }
    /** null for none */
    public String getReason() { return reason.isEmpty() ? null : reason; }
    public String getEstimateRevision() { return estimateRevision; }
    public long getJobs() { return jobs; }
    public BigDecimal getEstimate() { return estimate; }
    public long getAttempts() { return attempts; }
    public BigDecimal getCost() { return cost; }
    public BigDecimal getReserved() { return reserved; }
    public long getDoubleClaims() { return doubleClaims; }
    public long getPredictedLateJobs() { return predictedLateJobs; }
    public BigDecimal getPredictedLateCost() { return predictedLateCost; }
}

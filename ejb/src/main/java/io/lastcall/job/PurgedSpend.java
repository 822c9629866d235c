package io.lastcall.job;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.math.BigDecimal;

/**
 * Spend that retention purged with its attempts, kept per workload and hour of claim, so that a
 * budget still counts it: a budget period starts on an hour, and its spend is the cost and kept
 * reservation of the attempts claimed since then plus these rows.
 */
@Entity
@Table(name = "lc_purged_spend")
public class PurgedSpend {

    public static final long HOUR_MS = 3_600_000;

    @Id
    @Column(name = "spend_id", length = 96)
    private String spendId;

    @Column(name = "workload", length = 64, nullable = false)
    private String workload;

    @Column(name = "hour_start", nullable = false)
    private long hourStart;

    @Column(name = "amount", nullable = false, precision = 19, scale = 6)
    private BigDecimal amount;

    protected PurgedSpend() {
    }

    public PurgedSpend(String workload, long hourStart) {
        this.spendId = id(workload, hourStart);
        this.workload = workload;
        this.hourStart = hourStart;
        this.amount = BigDecimal.ZERO;
    }

    public static String id(String workload, long hourStart) {
        return workload + "@" + hourStart;
    }

    /** The hour a claim at {@code claimedAt} (epoch ms) falls in. */
    public static long hourOf(long claimedAt) {
        return Math.floorDiv(claimedAt, HOUR_MS) * HOUR_MS;
    }

    public void add(BigDecimal more) {
        amount = amount.add(more);
    }

    public String getWorkload() { return workload; }
    public long getHourStart() { return hourStart; }
    public BigDecimal getAmount() { return amount; }
}

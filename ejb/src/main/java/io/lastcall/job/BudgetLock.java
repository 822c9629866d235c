package io.lastcall.job;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * One row per budgeted workload, locked by every claim of that workload, so that checking the
 * budget and reserving against it are one step: two claims cannot both pass a budget that fits one.
 */
@Entity
@Table(name = "lc_budget_lock")
public class BudgetLock {

    @Id
    @Column(name = "workload", length = 64)
    private String workload;

    @Column(name = "claims", nullable = false)
    private long claims;

    protected BudgetLock() {
    }

    public BudgetLock(String workload) {
        this.workload = workload;
    }

    public void claimed() {
        claims++;
    }

    public String getWorkload() { return workload; }
    public long getClaims() { return claims; }
}

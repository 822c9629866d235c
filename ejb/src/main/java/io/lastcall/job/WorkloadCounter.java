package io.lastcall.job;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * How many jobs ingress accepted for one workload, incremented in the same transaction that
 * persists each job. The invariant compares it with the job rows (terminal + in flight), so it
 * can actually fail: a job row lost, deleted or never written shows up as a difference.
 */
@Entity
@Table(name = "lc_workload_counter")
public class WorkloadCounter {

    @Id
    @Column(name = "workload", length = 64)
    private String workload;

    @Column(name = "accepted", nullable = false)
    private long accepted;

    protected WorkloadCounter() {
    }

    public WorkloadCounter(String workload) {
        this.workload = workload;
    }

    public String getWorkload() { return workload; }
    public long getAccepted() { return accepted; }
}

package io.lastcall.reconcile;

import io.lastcall.schema.DatabaseTime;
import io.lastcall.instance.InstanceLease;
import io.lastcall.job.Attempt;
import io.lastcall.job.Job;
import io.lastcall.job.JobState;
import io.lastcall.job.Outcome;
import io.lastcall.policy.WorkloadPolicy;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import java.util.List;

/**
 * Rule 4: handed off, and no result although the call's own timeout (counted from the handoff)
 * and the grace have passed: OUTCOME_UNKNOWN (RESULT_OVERDUE), the exposure stays reserved. While
 * the boot that made the call is alive (its lease holds), its call thread may still be retrying
 * the settlement of a finished call (a database outage): that attempt is left to it for
 * {@code lastcall.dispatch.settle-retry-ms} more, so a finished call's result is not discarded.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class MarkSilentHandoffs {

    @PersistenceContext(unitName = "ledger")
    private EntityManager em;

    /** Judged on the database's clock, which every server sees alike. */
    public boolean apply(String jobId, WorkloadPolicy policy, long graceMs, long settleRetryMs,
            String currentBootId, long leaseMs) {
        Job job = em.find(Job.class, jobId, LockModeType.PESSIMISTIC_WRITE);
        long now = DatabaseTime.millis(em);
        if (job == null || job.getState() != JobState.HANDED_OFF || now <= policy.resultDueBy(job) + graceMs) {
            return false;
        }
        List<Attempt> open = em.createQuery("select a from Attempt a where a.jobId = :id and a.state = :open",
                Attempt.class).setParameter("id", jobId).setParameter("open", Attempt.State.HANDED_OFF)
                .getResultList();
        // this server is alive whatever its lease row says (its renewal may still be catching up after an outage)
        boolean callerAlive = open.stream().anyMatch(a -> currentBootId.equals(a.getBootId()))
                || liveLease(open, now, leaseMs);
        if (callerAlive && now <= policy.resultDueBy(job) + graceMs + settleRetryMs) {
            return false;
        }
        for (Attempt a : open) {
            a.unknown(now, "no result recorded by " + now + " (reconciler)", null);
        }
        job.end(Outcome.UNKNOWN_RESULT_OVERDUE, now);
        return true;
    }

    private boolean liveLease(List<Attempt> attempts, long dbNow, long leaseMs) {
        return attempts.stream().map(a -> a.getBootId() == null ? null : em.find(InstanceLease.class, a.getBootId()))
                .anyMatch(lease -> lease != null && lease.liveAt(dbNow, leaseMs));
    }
}

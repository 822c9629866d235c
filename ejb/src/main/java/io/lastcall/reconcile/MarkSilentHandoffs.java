package io.lastcall.reconcile;

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

/**
 * Rule 4: handed off, and no result although the call's own timeout (counted from the handoff)
 * and the grace have passed: OUTCOME_UNKNOWN (RESULT_OVERDUE), the exposure stays reserved.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class MarkSilentHandoffs {

    @PersistenceContext(unitName = "ledger")
    private EntityManager em;

    public boolean apply(String jobId, long now, WorkloadPolicy policy, long graceMs) {
        Job job = em.find(Job.class, jobId, LockModeType.PESSIMISTIC_WRITE);
        if (job == null || job.getState() != JobState.HANDED_OFF || now <= resultDueBy(job, policy) + graceMs) {
            return false;
        }
        for (Attempt a : em.createQuery("select a from Attempt a where a.jobId = :id and a.state = :open",
                Attempt.class).setParameter("id", jobId).setParameter("open", Attempt.State.HANDED_OFF)
                .getResultList()) {
            a.unknown(now, "no result recorded by " + now + " (reconciler)", null);
        }
        job.end(Outcome.UNKNOWN_RESULT_OVERDUE, now);
        return true;
    }

    /** When a handed-off job's call must have ended: the handoff plus the call's timeout. */
    static long resultDueBy(Job job, WorkloadPolicy policy) {
        return job.getHandedOffAt() + policy.callTimeoutMs(job.getExpiresAt(), job.getHandedOffAt(),
                job.getDeadlineSemantics());
    }
}

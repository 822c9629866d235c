package io.lastcall.reconcile;

import io.lastcall.job.Attempt;
import io.lastcall.job.Job;
import io.lastcall.job.JobState;
import io.lastcall.schema.DatabaseTime;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;

/**
 * Rule 3: a claim older than {@code claim-timeout-ms} that never reached its handoff (its server
 * died between claim and handoff) is revoked, its reservation released, and the job re-admitted
 * within its remaining lifetime or expired. A revoked claim does not count toward max-attempts.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class RevokeLostClaims {

    @PersistenceContext(unitName = "ledger")
    private EntityManager em;

    /** @return true when the job was re-admitted and must be published */
    public boolean apply(String jobId, long claimTimeoutMs, long clockUncertaintyMs) {
        Job job = em.find(Job.class, jobId, LockModeType.PESSIMISTIC_WRITE);
        long now = DatabaseTime.millis(em); // every server judges a claim's age alike
        if (job == null || job.getState() != JobState.CLAIMED || job.getCheckedAt() > now - claimTimeoutMs) {
            return false;
        }
        Attempt claim = em.createQuery("select a from Attempt a where a.jobId = :id and a.state = :claimed",
                Attempt.class).setParameter("id", jobId).setParameter("claimed", Attempt.State.CLAIMED)
                .getResultStream().findFirst().orElse(null);
        if (claim == null) {
            return false;
        }
        return ClaimRelease.release(job, claim, now, clockUncertaintyMs, "claim not handed off within "
                + claimTimeoutMs + " ms (reconciler)");
    }
}

package io.lastcall.reconcile;

import io.lastcall.job.Job;
import io.lastcall.job.JobState;
import io.lastcall.schema.JobLocks;
import io.lastcall.job.Outcome;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.List;

/**
 * Rule 2: a job not claimed and past its deadline plus grace — the broker dropped it silently, or
 * its message was lost, or a backlog outlived it — expires: IN_BROKER if it was queued, else
 * RECONCILED. In batches: after an outage thousands can be overdue at once, and one transaction
 * each would compete with the fresh work's drain.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class ExpireOverdue {

    @PersistenceContext(unitName = "ledger")
    private EntityManager em;

    /**
     * Ends up to {@code limit} overdue jobs in one transaction, the earliest deadlines first; they
     * are locked by one query in id order ({@link JobLocks}) and re-checked under the lock.
     * Returns how many ended.
     */
    public int batch(long now, long graceMs, int limit) {
        long before = now - graceMs;
        List<String> ids = em.createQuery("select j.jobId from Job j where j.state in :preClaim"
                        + " and j.expiresAt < :before order by j.expiresAt", String.class)
                .setParameter("preClaim", JobState.preClaimStates()).setParameter("before", before)
                .setMaxResults(limit).getResultList();
        if (ids.isEmpty()) {
            return 0;
        }
        // re-checked under the lock: a job claimed or ended meanwhile is left alone
        List<Job> overdue = JobLocks.lock(em, ids).stream()
                .filter(j -> j.getState().isPreClaim() && j.getExpiresAt() < before).toList();
        for (Job job : overdue) {
            job.end(job.getState() == JobState.QUEUED ? Outcome.EXPIRED_IN_BROKER : Outcome.EXPIRED_RECONCILED, now);
        }
        return overdue.size();
    }
}

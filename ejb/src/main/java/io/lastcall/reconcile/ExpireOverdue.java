package io.lastcall.reconcile;

import io.lastcall.job.Job;
import io.lastcall.job.JobState;
import io.lastcall.job.Outcome;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;

/**
 * Rule 2: a job not claimed and past its deadline plus grace — the broker dropped it silently, or
 * its message was lost — expires: IN_BROKER if it was queued, else RECONCILED.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class ExpireOverdue {

    @PersistenceContext(unitName = "ledger")
    private EntityManager em;

    public boolean apply(String jobId, long now, long graceMs) {
        Job job = em.find(Job.class, jobId, LockModeType.PESSIMISTIC_WRITE);
        if (job == null || !job.getState().isPreClaim() || now <= job.getExpiresAt() + graceMs) {
            return false;
        }
        job.end(job.getState() == JobState.QUEUED ? Outcome.EXPIRED_IN_BROKER : Outcome.EXPIRED_RECONCILED, now);
        return true;
    }
}

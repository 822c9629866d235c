package io.lastcall.reconcile;

import io.lastcall.job.Job;
import io.lastcall.job.JobState;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import java.util.Optional;

/**
 * Rule 1: a reference owed a publish for longer than {@code republish-after-ms} (never confirmed,
 * a retry or a dead-letter republish whose publish failed). Taking the turn marks it as being
 * published now, so a concurrent reconciler on another server skips it; the caller publishes.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class RepublishOwed {

    @PersistenceContext(unitName = "ledger")
    private EntityManager em;

    /** The job whose turn to publish this caller took, if it is still owed since before {@code before}. */
    public Optional<Job> takeTurn(String jobId, long before, long now) {
        Job job = em.find(Job.class, jobId, LockModeType.PESSIMISTIC_WRITE);
        if (job == null || job.getPublishRequestedAt() == null || job.getPublishRequestedAt() >= before
                || !(job.getState() == JobState.ACCEPTED || job.getState() == JobState.QUEUED)) {
            return Optional.empty();
        }
        job.publishAttempted(now);
        return Optional.of(job);
    }
}

package io.lastcall.reconcile;

import io.lastcall.schema.DatabaseTime;
import io.lastcall.instance.InstanceLease;
import io.lastcall.job.Attempt;
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
 * Rule 0, also run at startup: an attempt this server instance claimed in an earlier boot can no
 * longer receive anything. Handed off → OUTCOME_UNKNOWN (SERVER_RESTARTED), exposure kept, never
 * resent; only claimed → revoked and re-admitted within its lifetime (it never reached the wire).
 * A boot of the same instance id that renewed its lease after this boot started is alive (two
 * servers share an id): left alone. One that might still renew (its next renewal is not overdue
 * yet, on the database's clock) is UNDECIDED: the reconciler looks again once it is.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class ClosePreviousBoots {

    /** What was done to one attempt. */
    public enum Closed { NOTHING, UNKNOWN, READMITTED, EXPIRED, UNDECIDED }

    @PersistenceContext(unitName = "ledger")
    private EntityManager em;

    public Closed apply(String attemptId, String currentBootId, long now, long clockUncertaintyMs, long leaseMs) {
        Attempt attempt = em.find(Attempt.class, attemptId);
        if (attempt == null || currentBootId.equals(attempt.getBootId())) {
            return Closed.NOTHING;
        }
        // another live boot with this instance id (a misconfiguration) is not a previous boot: its
        // attempts are its own; one whose next renewal is not overdue yet is decided later
        InstanceLease theirs = attempt.getBootId() == null ? null : em.find(InstanceLease.class, attempt.getBootId());
        InstanceLease mine = em.find(InstanceLease.class, currentBootId);
        if (theirs != null && theirs.mayBeAliveAt(DatabaseTime.millis(em), leaseMs,
                mine == null ? Long.MAX_VALUE : mine.getStartedAt())) {
            return Closed.UNDECIDED;
        }
        return close(em, attempt, now, clockUncertaintyMs, Outcome.UNKNOWN_SERVER_RESTARTED, "restarted");
    }

    /**
     * Closes an attempt whose server boot can no longer act on it, under the job's row lock:
     * handed off → {@code unknown} (exposure kept, never resent), only claimed → re-admitted or
     * expired. {@code what} says what happened to the boot ("restarted", "stopped renewing its lease").
     */
    static Closed close(EntityManager em, Attempt attempt, long now, long clockUncertaintyMs, Outcome unknown,
            String what) {
        Job job = em.find(Job.class, attempt.getJobId(), LockModeType.PESSIMISTIC_WRITE);
        em.refresh(attempt);
        if (job == null || job.getGeneration() != attempt.getGeneration()) {
            return Closed.NOTHING;
        }
        if (attempt.getState() == Attempt.State.HANDED_OFF && job.getState() == JobState.HANDED_OFF) {
            attempt.unknown(now, "the server instance " + attempt.getInstanceId() + " " + what + " after the handoff",
                    null);
            job.end(unknown, now);
            return Closed.UNKNOWN;
        }
        if (attempt.getState() == Attempt.State.CLAIMED && job.getState() == JobState.CLAIMED) {
            return ClaimRelease.release(job, attempt, now, clockUncertaintyMs, "the server instance " + what
                    + " before the handoff") ? Closed.READMITTED : Closed.EXPIRED;
        }
        return Closed.NOTHING;
    }
}

package io.lastcall.reconcile;

import io.lastcall.schema.DatabaseTime;
import io.lastcall.instance.InstanceLease;
import io.lastcall.job.Attempt;
import io.lastcall.job.Outcome;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

/**
 * Rule 0b, on every server: an open attempt of another server boot whose lease has lapsed (that
 * server was killed, froze or lost the database for longer than {@code lastcall.instance.lease-ms},
 * judged on the database's clock; a boot with no lease row at all — its first write failed — only
 * once its attempt is older than the lease).
 * Handed off → OUTCOME_UNKNOWN (SERVER_LOST), exposure kept, never resent; only claimed →
 * revoked and re-admitted within its lifetime. If that boot is alive after all, the row locks
 * still hold: its handoff of a revoked claim is refused, and the result of a handoff closed here
 * is not recorded (the outcome stays OUTCOME_UNKNOWN, as for RESULT_OVERDUE).
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class CloseLapsedLeases {

    @PersistenceContext(unitName = "ledger")
    private EntityManager em;

    public ClosePreviousBoots.Closed apply(String attemptId, String currentBootId, long now, long leaseMs,
            long clockUncertaintyMs) {
        Attempt attempt = em.find(Attempt.class, attemptId);
        if (attempt == null || attempt.getBootId() == null || currentBootId.equals(attempt.getBootId())) {
            return ClosePreviousBoots.Closed.NOTHING;
        }
        InstanceLease lease = em.find(InstanceLease.class, attempt.getBootId());
        long dbNow = DatabaseTime.millis(em);
        if (lease != null && lease.liveAt(dbNow, leaseMs)) {
            return ClosePreviousBoots.Closed.NOTHING;
        }
        long lastActivity = attempt.getHandedOffAt() != null ? attempt.getHandedOffAt() : attempt.getClaimedAt();
        if (lease == null && dbNow - lastActivity < leaseMs) {
            return ClosePreviousBoots.Closed.NOTHING; // its first lease write may have failed: not lapsed yet
        }
        return ClosePreviousBoots.close(em, attempt, now, clockUncertaintyMs, Outcome.UNKNOWN_SERVER_LOST,
                "stopped renewing its lease");
    }
}

package io.lastcall.dispatch;

import io.lastcall.job.Job;
import io.lastcall.job.Outcome;
import io.lastcall.receipt.ReceivedMessage;
import io.lastcall.schema.JobLocks;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A message the broker dead-lettered, decided by the ledger's own deadline (never the message's):
 * a job with lifetime left — a queue's TTL cap, not its deadline, expired it — is owed a publish
 * with its remaining TTL; otherwise its outcome is recorded. Untrusted messages are quarantined
 * with the same check the worker uses. Nothing stale is ever republished.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class DeadLetterLedger {

    @PersistenceContext(unitName = "ledger")
    private EntityManager em;

    @EJB
    private MessageReceipt receipt;

    @Inject
    Clock clock;

    /**
     * @param deathReason the reason of the message's last death (expired, rejected, maxlen, delivery_limit)
     * @return the job to publish again after this commits, if it still has lifetime
     */
    public Optional<Job> deadLettered(ReceivedMessage message, String deathReason, Set<Integer> schemaVersions,
            long clockUncertaintyMs) {
        return record(message, deathReason, schemaVersions, clockUncertaintyMs);
    }

    /**
     * Expired dead letters in one transaction ({@link StaleDeadLetters}): the jobs they name are
     * locked with one query, in id order, so each check below finds its job already locked; the
     * delivery rows and outcomes go out in one flush. Returns the jobs owed a publish (none, for
     * references whose deadline passed, unless the ledger disagrees with the message).
     */
    public List<Job> deadLetteredAll(List<ReceivedMessage> messages, Set<Integer> schemaVersions,
            long clockUncertaintyMs) {
        JobLocks.lock(em, messages.stream().flatMap(m -> m.referencedJobId(schemaVersions).stream()).toList());
        List<Job> owed = new ArrayList<>();
        for (ReceivedMessage message : messages) {
            record(message, message.deathReason() == null ? "unknown" : message.deathReason(), schemaVersions,
                    clockUncertaintyMs).ifPresent(owed::add);
        }
        return owed;
    }

    private Optional<Job> record(ReceivedMessage message, String deathReason, Set<Integer> schemaVersions,
            long clockUncertaintyMs) {
        long now = clock.millis();
        Job job = receipt.trustedJob(message, schemaVersions, "dead-lettered (" + deathReason + "): ", true, now)
                .orElse(null);
        if (job == null) {
            return Optional.empty();
        }
        if (!job.getState().isPreClaim()) {
            return Optional.empty(); // ended, or claimed: its outcome comes from the worker or the reconciler
        }
        if (!"expired".equals(deathReason)) {
            job.end(Outcome.deadLettered(deathReason), now);
            return Optional.empty();
        }
        if (job.remainingForDispatch(now, clockUncertaintyMs) > 0) {
            job.publishAttempted(now); // owed: if the publish after commit fails, the reconciler does it
            return Optional.of(job);
        }
        job.end(Outcome.EXPIRED_IN_BROKER, now);
        return Optional.empty();
    }
}

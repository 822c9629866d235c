package io.lastcall.dispatch;

import io.lastcall.clock.ClockHealth;
import io.lastcall.ingress.JobPublisher;
import io.lastcall.job.Deadline;
import io.lastcall.job.Job;
import io.lastcall.job.QuarantinedMessage;
import io.lastcall.job.ReferenceCheck;
import io.lastcall.policy.Settings;
import io.lastcall.receipt.ReceivedMessage;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.Optional;

/**
 * What happens to a dead-lettered message (docs/design.md, "Dead letters"). A reference the
 * broker expired whose deadline has clearly passed goes to {@link StaleDeadLetters}, recorded in
 * batches; every other message is recorded on its own by {@link #recordOne}, which never loses a
 * message it could not record: an infrastructure failure holds it back (the adapter's
 * {@code pauseOn}); any other failure keeps it in the quarantine (reason
 * {@code DEAD_LETTER_UNRECORDABLE}) before it is acknowledged.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class DeadLetters {

    @EJB
    private DeadLetterLedger ledger;

    @EJB
    private StaleDeadLetters stale;

    @EJB
    private Quarantine quarantine;

    @EJB
    private JobPublisher publisher;

    @EJB
    private FailureTriage triage;

    @Inject
    private ClockHealth clockHealth;

    @Inject
    private Settings settings;

    @Inject
    private Clock clock;

    public void handle(ReceivedMessage message) {
        if (!(isStaleExpiry(message) && stale.offer(message))) {
            recordOne(message);
        }
    }

    /**
     * Expired by the broker, and a well-formed reference whose deadline (plus the clock margin)
     * has passed under any semantics: whatever the ledger says, nothing will be published again,
     * so the exact moment it is recorded does not matter.
     */
    private boolean isStaleExpiry(ReceivedMessage message) {
        if (!"expired".equals(message.deathReason()) || message.unreadable() != null) {
            return false;
        }
        ReferenceCheck.Verdict verdict = ReferenceCheck.parse(message.body(), settings.schemaVersions());
        return verdict.trusted()
                && !Deadline.latestStart(verdict.reference().expiresAt()).mayDispatch(clock.millis(), clockHealth.marginMs());
    }

    /** One message, one transaction; republishes a job the TTL cap (not its deadline) expired. */
    public void recordOne(ReceivedMessage message) {
        String reason = message.deathReason() == null ? "unknown" : message.deathReason();
        Optional<Job> republish;
        try {
            republish = ledger.deadLettered(message, reason, settings.schemaVersions(), clockHealth.marginMs());
        } catch (RuntimeException e) {
            RuntimeException triaged = triage.classify(e, "recording dead-lettered message " + message.messageId());
            if (triaged instanceof InfrastructureFailure) {
                throw triaged;
            }
            try {
                quarantine.recordAlone(message, null, QuarantinedMessage.Reason.DEAD_LETTER_UNRECORDABLE,
                        "dead-lettered (" + reason + ") but not recordable: " + e, System.currentTimeMillis());
            } catch (RuntimeException stillFailing) {
                throw new InfrastructureFailure("cannot even quarantine dead-lettered message "
                        + message.messageId() + ": " + stillFailing, stillFailing);
            }
            return;
        }
        // the TTL cap, not the deadline, expired it: back to its queue with the remaining lifetime
        republish.ifPresent(job -> publisher.publish(job.getJobId(), job.getWorkload(), 0));
    }
}

package io.lastcall.dispatch;

import io.lastcall.job.Job;
import io.lastcall.job.QuarantinedMessage;
import io.lastcall.job.ReferenceCheck;
import io.lastcall.receipt.DeliveryLog;
import io.lastcall.receipt.ReceivedMessage;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import java.util.Optional;
import java.util.Set;

/**
 * The first step of every consumer, worker and dead-letter alike, in the caller's transaction:
 * record the delivery, then either the job it trustworthily refers to (locked) or a quarantine
 * row with the reason — an unreadable message, or one {@link ReferenceCheck} does not trust.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.MANDATORY)
public class MessageReceipt {

    @PersistenceContext(unitName = "ledger")
    private EntityManager em;

    @EJB
    private DeliveryLog deliveries;

    @EJB
    private Quarantine quarantine;

    /**
     * @param context what the quarantine detail starts with (e.g. the dead-lettering), or ""
     * @param logDelivery whether the delivery gets its delivery-log row (a quarantined message always has its own)
     */
    public Optional<Job> trustedJob(ReceivedMessage message, Set<Integer> schemaVersions, String context,
            boolean logDelivery, long now) {
        if (logDelivery) {
            deliveries.record(message);
        }
        if (message.unreadable() != null) {
            quarantine.record(message, null, QuarantinedMessage.Reason.MESSAGE_UNREADABLE,
                    context + message.unreadable(), now);
            return Optional.empty();
        }
        ReferenceCheck.Verdict verdict = ReferenceCheck.parse(message.body(), schemaVersions);
        Job job = null;
        if (verdict.trusted()) {
            job = em.find(Job.class, verdict.reference().jobId(), LockModeType.PESSIMISTIC_WRITE);
            verdict = ReferenceCheck.against(verdict.reference(), job);
        }
        if (!verdict.trusted()) {
            quarantine.record(message, verdict.reference() == null ? null : verdict.reference().jobId(),
                    verdict.reason(), context + verdict.detail(), now);
            return Optional.empty();
        }
        return Optional.of(job);
    }
}

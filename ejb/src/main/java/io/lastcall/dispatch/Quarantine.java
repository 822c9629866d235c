package io.lastcall.dispatch;

import io.lastcall.job.QuarantinedMessage;
import io.lastcall.receipt.ReceivedMessage;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.List;
import java.util.logging.Logger;

/** Keeps a broker message lastcall will not act on, with its reason; never drops one silently. */
@Stateless
public class Quarantine {

    private static final Logger LOG = Logger.getLogger(Quarantine.class.getName());

    @PersistenceContext(unitName = "ledger")
    private EntityManager em;

    /** In the caller's transaction. */
    @TransactionAttribute(TransactionAttributeType.MANDATORY)
    public void record(ReceivedMessage message, String jobId, QuarantinedMessage.Reason reason, String detail,
            long now) {
        LOG.warning("Quarantined message " + message.messageId() + " from " + message.queue() + ": " + reason + " ("
                + detail + ")");
        em.persist(new QuarantinedMessage(message.messageId(), message.queue(), jobId, reason, detail, message.body(),
                now));
    }

    /** In a transaction of its own: when the caller's work failed and only the quarantine row can still be kept. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void recordAlone(ReceivedMessage message, String jobId, QuarantinedMessage.Reason reason, String detail,
            long now) {
        record(message, jobId, reason, detail, now);
    }

    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public List<QuarantinedMessage> newest(int limit) {
        return em.createQuery("select q from QuarantinedMessage q order by q.id desc", QuarantinedMessage.class)
                .setMaxResults(Math.max(1, Math.min(limit, 10_000))).getResultList();
    }
}

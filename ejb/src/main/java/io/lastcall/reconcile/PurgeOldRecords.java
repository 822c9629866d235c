package io.lastcall.reconcile;

import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.List;

/**
 * Retention, logs: one bounded batch of delivery-log rows, or of quarantined messages, older
 * than the cutoff, deleted in one transaction. Neither is counted anywhere else, so nothing needs
 * to be kept of them.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class PurgeOldRecords {

    @PersistenceContext(unitName = "ledger")
    private EntityManager em;

    public int deliveries(long cutoff, int limit) {
        List<Long> ids = em.createQuery("select d.id from DeliveryRecord d where d.receivedAt < :cutoff"
                + " order by d.receivedAt", Long.class).setParameter("cutoff", cutoff).setMaxResults(limit)
                .getResultList();
        return ids.isEmpty() ? 0
                : em.createQuery("delete from DeliveryRecord d where d.id in :ids").setParameter("ids", ids)
                        .executeUpdate();
    }

    public int quarantined(long cutoff, int limit) {
        List<Long> ids = em.createQuery("select q.id from QuarantinedMessage q where q.quarantinedAt < :cutoff"
                + " order by q.quarantinedAt", Long.class).setParameter("cutoff", cutoff).setMaxResults(limit)
                .getResultList();
        return ids.isEmpty() ? 0
                : em.createQuery("delete from QuarantinedMessage q where q.id in :ids").setParameter("ids", ids)
                        .executeUpdate();
    }
}

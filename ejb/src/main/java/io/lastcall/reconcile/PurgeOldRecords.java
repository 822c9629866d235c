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
        return purge("DeliveryRecord", "receivedAt", cutoff, limit);
    }

    public int quarantined(long cutoff, int limit) {
        return purge("QuarantinedMessage", "quarantinedAt", cutoff, limit);
    }

    /** The oldest {@code limit} rows of an entity with a numeric id, by its time field. */
    private int purge(String entity, String timeField, long cutoff, int limit) {
        List<Long> ids = em.createQuery("select e.id from " + entity + " e where e." + timeField + " < :cutoff"
                + " order by e." + timeField, Long.class).setParameter("cutoff", cutoff).setMaxResults(limit)
                .getResultList();
        return ids.isEmpty() ? 0
                : em.createQuery("delete from " + entity + " e where e.id in :ids").setParameter("ids", ids)
                        .executeUpdate();
    }
}

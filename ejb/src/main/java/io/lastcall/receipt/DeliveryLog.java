package io.lastcall.receipt;

import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.TypedQuery;
import java.util.List;

/** Records deliveries in the caller's transaction (an MDB's, for the worker queue) and lists them. */
@Stateless
public class DeliveryLog {

    @PersistenceContext(unitName = "ledger")
    private EntityManager em;

    public DeliveryRecord record(ReceivedMessage message) {
        DeliveryRecord record = new DeliveryRecord(message);
        em.persist(record);
        return record;
    }

    /** Newest first; {@code queue} null or blank means all queues. */
    public List<DeliveryRecord> list(String queue, int limit) {
        boolean all = queue == null || queue.isBlank();
        TypedQuery<DeliveryRecord> query = em.createQuery("select d from DeliveryRecord d"
                + (all ? "" : " where d.queue = :queue") + " order by d.id desc", DeliveryRecord.class);
        if (!all) {
            query.setParameter("queue", queue);
        }
        return query.setMaxResults(Math.max(1, Math.min(limit, 10_000))).getResultList();
    }
}

package io.lastcall.instance;

import io.lastcall.job.Attempt;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.List;
import java.util.Set;

/** Writes and reads the boots' leases, each in its own short transaction. */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class LeaseLedger {

    @PersistenceContext(unitName = "ledger")
    private EntityManager em;

    /** This boot is alive at {@code now}: its row is created or moved on. */
    public void renew(String bootId, String instanceId, long startedAt, long now) {
        InstanceLease lease = em.find(InstanceLease.class, bootId);
        if (lease == null) {
            em.persist(new InstanceLease(bootId, instanceId, startedAt, now));
        } else {
            lease.renewed(now);
        }
    }

    /** The boots whose lease holds at {@code now}, oldest first. */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public List<InstanceLease> live(long now, long leaseMs) {
        return em.createQuery("select l from InstanceLease l where l.heartbeatAt >= :since order by l.startedAt",
                InstanceLease.class).setParameter("since", now - leaseMs).getResultList();
    }

    /** Leases that lapsed before {@code before} and hold no open attempt any more: history, removed. */
    public int purgeLapsed(long before) {
        return em.createQuery("delete from InstanceLease l where l.heartbeatAt < :before and not exists"
                + " (select a from Attempt a where a.bootId = l.bootId and a.state in :open)")
                .setParameter("before", before)
                .setParameter("open", Set.of(Attempt.State.CLAIMED, Attempt.State.HANDED_OFF)).executeUpdate();
    }
}

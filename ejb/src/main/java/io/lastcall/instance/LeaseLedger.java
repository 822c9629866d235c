package io.lastcall.instance;

import io.lastcall.job.Attempt;
import io.lastcall.schema.DatabaseTime;
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

    /**
     * This boot's renewal, and the other live boots of its instance id: each renewed after this
     * boot's first renewal, so none is a predecessor that died before this boot started.
     */
    public record Renewal(long at, List<String> otherLiveBoots) {
    }

    /** This boot is alive now (database time): its row is created or moved on. */
    public Renewal renew(String bootId, String instanceId, long leaseMs) {
        long now = DatabaseTime.millis(em);
        InstanceLease lease = em.find(InstanceLease.class, bootId);
        if (lease == null) {
            lease = new InstanceLease(bootId, instanceId, now, now);
            em.persist(lease);
        } else {
            lease.renewed(now);
        }
        List<String> others = em.createQuery("select l.bootId from InstanceLease l where l.instanceId = :instance"
                        + " and l.bootId <> :boot and l.heartbeatAt > :since and l.heartbeatAt >= :live", String.class)
                .setParameter("instance", instanceId).setParameter("boot", bootId)
                .setParameter("since", lease.getStartedAt()).setParameter("live", now - leaseMs).getResultList();
        return new Renewal(now, others);
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

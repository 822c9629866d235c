package io.lastcall.reconcile;

import io.lastcall.job.RollUpMark;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.List;

/**
 * Retention, ended jobs: one bounded batch of jobs that ended before the cutoff and are rolled up
 * already (at or before the roll-up mark, {@link RollUpEndedJobs}: their figures live on in the
 * ended totals), deleted with their attempts in one transaction. Only a rolled-up job is ever
 * removed, and only an ended job is ever rolled up.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class PurgeEndedJobs {

    @PersistenceContext(unitName = "ledger")
    private EntityManager em;

    /** Purges up to {@code limit} rolled-up jobs that ended before {@code cutoff}; returns how many. */
    public int batch(long cutoff, int limit) {
        RollUpMark mark = em.find(RollUpMark.class, RollUpMark.ID);
        long before = Math.min(cutoff, mark == null ? 0 : mark.getRolledUpTo() + 1);
        List<String> ids = em.createQuery("select j.jobId from Job j where j.finishedAt < :before"
                + " order by j.finishedAt", String.class)
                .setParameter("before", before).setMaxResults(limit).getResultList();
        if (ids.isEmpty()) {
            return 0;
        }
        em.createQuery("delete from Attempt a where a.jobId in :ids").setParameter("ids", ids).executeUpdate();
        return em.createQuery("delete from Job j where j.jobId in :ids").setParameter("ids", ids).executeUpdate();
    }
}

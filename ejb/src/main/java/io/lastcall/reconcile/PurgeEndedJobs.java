package io.lastcall.reconcile;

import io.lastcall.job.Attempt;
import io.lastcall.job.PurgedSpend;
import io.lastcall.job.RollUpMark;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Retention, ended jobs: one bounded batch of jobs that ended before the cutoff and are rolled up
 * already (at or before the roll-up mark, {@link RollUpEndedJobs}: their figures live on in the
 * ended totals), deleted with their attempts in one transaction. Only a rolled-up job is ever
 * removed, and only an ended job is ever rolled up. The attempts' cost and kept reservations move
 * to {@link PurgedSpend} in the same transaction, so a budget never forgets what was spent.
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
        keepSpend(ids);
        em.createQuery("delete from Attempt a where a.jobId in :ids").setParameter("ids", ids).executeUpdate();
        return em.createQuery("delete from Job j where j.jobId in :ids").setParameter("ids", ids).executeUpdate();
    }

    /** Adds the attempts' cost and reservation, per workload and hour of claim, to the purged spend. */
    private void keepSpend(List<String> ids) {
        Map<String, BigDecimal> byHour = new TreeMap<>();
        Map<String, Object[]> keys = new TreeMap<>();
        for (Attempt a : em.createQuery("select a from Attempt a where a.jobId in :ids", Attempt.class)
                .setParameter("ids", ids).getResultList()) {
            BigDecimal spent = nonNull(a.getCost()).add(nonNull(a.getReserved()));
            if (spent.signum() == 0) {
                continue;
            }
            long hour = PurgedSpend.hourOf(a.getClaimedAt());
            String id = PurgedSpend.id(a.getWorkload(), hour);
            byHour.merge(id, spent, BigDecimal::add);
            keys.putIfAbsent(id, new Object[] {a.getWorkload(), hour});
        }
        byHour.forEach((id, spent) -> {
            PurgedSpend row = em.find(PurgedSpend.class, id, LockModeType.PESSIMISTIC_WRITE);
            if (row == null) {
                row = new PurgedSpend((String) keys.get(id)[0], (Long) keys.get(id)[1]);
                em.persist(row);
            }
            row.add(spent);
        });
    }

    private static BigDecimal nonNull(BigDecimal v) {
        return v == null ? BigDecimal.ZERO : v;
    }
}

package io.lastcall.reconcile;

import io.lastcall.job.Attempt;
import io.lastcall.job.Job;
import io.lastcall.job.JobState;
import io.lastcall.job.PurgedTotals;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Retention, ended jobs: one bounded batch of jobs that ended before the cutoff, in one
 * transaction — their figures are added to {@link PurgedTotals} (locked), then their attempts and
 * the jobs are deleted. A job is re-read under its row lock, so only an ended job is ever removed.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class PurgeEndedJobs {

    @PersistenceContext(unitName = "ledger")
    private EntityManager em;

    /** Purges up to {@code limit} jobs that ended before {@code cutoff}; returns how many. */
    public int batch(long cutoff, int limit) {
        List<String> ids = em.createQuery("select j.jobId from Job j where j.finishedAt < :cutoff"
                + " and j.state in :ended order by j.finishedAt", String.class)
                .setParameter("cutoff", cutoff).setParameter("ended", JobState.terminalStates())
                .setMaxResults(limit).getResultList();
        if (ids.isEmpty()) {
            return 0;
        }
        Map<String, List<Attempt>> attempts = new HashMap<>();
        for (Attempt a : em.createQuery("select a from Attempt a where a.jobId in :ids", Attempt.class)
                .setParameter("ids", ids).getResultList()) {
            attempts.computeIfAbsent(a.getJobId(), k -> new java.util.ArrayList<>()).add(a);
        }
        Map<PurgedTotals.Key, PurgedTotals> totals = new HashMap<>();
        int purged = 0;
        for (String id : ids) {
            Job job = em.find(Job.class, id, LockModeType.PESSIMISTIC_WRITE);
            if (job == null || !job.getState().isTerminal()) {
                continue;
            }
            List<Attempt> own = attempts.getOrDefault(id, List.of());
            PurgedTotals.Key key = new PurgedTotals.Key(job.getWorkload(), job.getState(), job.getReason(),
                    job.getEstimateRevision());
            totals.computeIfAbsent(key, this::lockedTotals).add(job.getEstimate(), own.size(),
                    sum(own, Attempt::getCost), sum(own, Attempt::getReserved));
            own.forEach(em::remove);
            em.remove(job);
            purged++;
        }
        return purged;
    }

    private PurgedTotals lockedTotals(PurgedTotals.Key key) {
        PurgedTotals row = em.find(PurgedTotals.class, key, LockModeType.PESSIMISTIC_WRITE);
        if (row == null) {
            row = new PurgedTotals(key);
            em.persist(row);
        }
        return row;
    }

    private static BigDecimal sum(List<Attempt> attempts, java.util.function.Function<Attempt, BigDecimal> field) {
        return attempts.stream().map(field).filter(java.util.Objects::nonNull).reduce(BigDecimal.ZERO, BigDecimal::add);
    }
}

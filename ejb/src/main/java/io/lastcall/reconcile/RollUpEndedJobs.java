package io.lastcall.reconcile;

import io.lastcall.schema.DatabaseTime;
import io.lastcall.job.EndedTotals;
import io.lastcall.job.JobState;
import io.lastcall.job.RollUpMark;
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
import java.util.Objects;

/**
 * Roll-up, one bounded batch in one transaction: the jobs that ended after the roll-up mark
 * ({@link RollUpMark}) and at least {@code lagMs} ago, oldest first — their figures and their
 * attempts' are added to {@link EndedTotals} (locked) and the mark moves past them. An ended
 * job's figures never change, so the stats read the totals plus the jobs after the mark instead of
 * the whole ledger; no job row is written. The lag lets every transaction that ended a job at an
 * earlier instant commit first (they are short; servers' clocks agree with the database's within
 * the clock check's skew). The mark advances by the database's clock, so a server whose own clock
 * runs ahead cannot move it past jobs the others are still ending. The mark's row lock serializes
 * servers: nothing is counted twice.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class RollUpEndedJobs {

    @PersistenceContext(unitName = "ledger")
    private EntityManager em;

    /** Rolls up to about {@code limit} ended jobs; returns how many. */
    public int batch(long lagMs, int limit) {
        RollUpMark mark = em.find(RollUpMark.class, RollUpMark.ID, LockModeType.PESSIMISTIC_WRITE);
        long now = DatabaseTime.millis(em); // one clock for every server's roll-up, not each one's own
        if (mark == null) {
            throw new IllegalStateException("the roll-up mark (lc_rollup) is missing: the schema is not at version 3");
        }
        long until = now - lagMs;
        List<Object[]> jobs = ended(mark.getRolledUpTo(), until, limit);
        long rolledUpTo = until;
        if (jobs.size() == limit) {
            // the batch is full: stop before its last instant, whose other jobs may lie beyond the limit
            long last = finishedAt(jobs.get(limit - 1));
            jobs = jobs.stream().filter(job -> finishedAt(job) < last).toList();
            rolledUpTo = last - 1;
            if (jobs.isEmpty()) {
                // all of them ended in the same millisecond: that millisecond whole
                jobs = ended(last - 1, last, Integer.MAX_VALUE);
                rolledUpTo = last;
            }
        }
        if (!jobs.isEmpty()) {
            add(jobs);
        }
        mark.advanceTo(rolledUpTo);
        return jobs.size();
    }

    /** Jobs that ended in (after, until], oldest first. */
    private List<Object[]> ended(long after, long until, int limit) {
        return em.createQuery("select j.jobId, j.workload, j.state, j.reason, j.estimateRevision, j.estimate,"
                        + " j.finishedAt, j.predictedAnswerAt, j.expiresAt from Job j where j.finishedAt > :after and j.finishedAt <= :until"
                        + " order by j.finishedAt", Object[].class)
                .setParameter("after", after).setParameter("until", until).setMaxResults(limit).getResultList();
    }

    private static long finishedAt(Object[] job) {
        return (Long) job[6];
    }

    private void add(List<Object[]> jobs) {
        List<String> ids = jobs.stream().map(row -> (String) row[0]).toList();
        Map<String, JobAttempts> attempts = new HashMap<>();
        for (List<String> chunk : chunks(ids)) {
            for (Object[] a : em.createQuery("select a.jobId, a.generation, a.cost, a.reserved from Attempt a"
                    + " where a.jobId in :ids", Object[].class).setParameter("ids", chunk).getResultList()) {
                attempts.computeIfAbsent((String) a[0], k -> new JobAttempts()).add((Long) a[1], (BigDecimal) a[2],
                        (BigDecimal) a[3]);
            }
        }
        Map<EndedTotals.Key, EndedTotals> totals = new HashMap<>();
        for (Object[] job : jobs) {
            JobAttempts own = attempts.getOrDefault((String) job[0], new JobAttempts());
            EndedTotals.Key key = new EndedTotals.Key((String) job[1], (JobState) job[2], (String) job[3],
                    (String) job[4]);
            totals.computeIfAbsent(key, this::lockedTotals).add((BigDecimal) job[5], own.count, own.cost,
                    own.reserved, own.doubleClaims(), job[7] != null && (Long) job[7] > (Long) job[8]);
        }
    }

    /** IN lists of at most 1,000 (a millisecond's worth can be more). */
    private static List<List<String>> chunks(List<String> ids) {
        List<List<String>> chunks = new java.util.ArrayList<>();
        for (int i = 0; i < ids.size(); i += 1_000) {
            chunks.add(ids.subList(i, Math.min(ids.size(), i + 1_000)));
        }
        return chunks;
    }

    private EndedTotals lockedTotals(EndedTotals.Key key) {
        EndedTotals row = em.find(EndedTotals.class, key, LockModeType.PESSIMISTIC_WRITE);
        if (row == null) {
            row = new EndedTotals(key);
            em.persist(row);
        }
        return row;
    }

    /** One job's attempts, summed. */
    private static final class JobAttempts {
        long count;
        BigDecimal cost = BigDecimal.ZERO;
        BigDecimal reserved = BigDecimal.ZERO;
        private final Map<Long, Integer> perGeneration = new HashMap<>();

        void add(long generation, BigDecimal attemptCost, BigDecimal attemptReserved) {
            count++;
            cost = cost.add(Objects.requireNonNullElse(attemptCost, BigDecimal.ZERO));
            reserved = reserved.add(Objects.requireNonNullElse(attemptReserved, BigDecimal.ZERO));
            perGeneration.merge(generation, 1, Integer::sum);
        }

        /** Generations claimed more than once (the invariant says never). */
        long doubleClaims() {
            return perGeneration.values().stream().filter(n -> n > 1).count();
        }
    }
}

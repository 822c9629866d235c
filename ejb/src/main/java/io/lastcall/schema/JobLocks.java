package io.lastcall.schema;

import io.lastcall.job.Job;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import java.util.Collection;
import java.util.List;

/**
 * The one order in which a transaction locks several job rows: all of them in one query, in the
 * database's order of job ids, before it touches any (docs/design.md §8, "One lock order"). Two
 * such transactions then wait for each other instead of deadlocking. A transaction's other locked
 * rows (budget, rate) come after its jobs.
 */
public final class JobLocks {

    private static final String LOCK = " from Job j where j.jobId in :ids order by j.jobId";

    private JobLocks() {
    }

    /** Locks and loads these jobs (a missing one is left out): the transaction's own finds of them then wait for nothing. */
    public static List<Job> lock(EntityManager em, Collection<String> jobIds) {
        return jobIds.isEmpty() ? List.of() : em.createQuery("select j" + LOCK, Job.class).setParameter("ids", jobIds)
                .setLockMode(LockModeType.PESSIMISTIC_WRITE).getResultList();
    }

    /** Locks these jobs without loading them, for a bulk update of many that reads none of them back. */
    public static void lockUnread(EntityManager em, Collection<String> jobIds) {
        if (!jobIds.isEmpty()) {
            em.createQuery("select j.jobId" + LOCK, String.class).setParameter("ids", jobIds)
                    .setLockMode(LockModeType.PESSIMISTIC_WRITE).getResultList();
        }
    }
}

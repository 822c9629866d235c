package io.lastcall.ingress;

import io.lastcall.job.Job;
import io.lastcall.job.JobState;
import io.lastcall.job.Outcome;
import io.lastcall.job.WorkloadCounter;
import io.lastcall.schema.JobLocks;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/** Ingress's transactions: accept a job (and count it), record the broker's confirm, or expire before publish. */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class IngressLedger {

    @PersistenceContext(unitName = "ledger")
    private EntityManager em;

    private Job lock(String jobId) {
        return em.find(Job.class, jobId, LockModeType.PESSIMISTIC_WRITE);
    }

    /** Creates a workload's accepted counter if it is missing (a concurrent creator makes this one fail: harmless). */
    public void ensureCounter(String workload) {
        if (em.find(WorkloadCounter.class, workload) == null) {
            em.persist(new WorkloadCounter(workload));
            em.flush();
        }
    }

    /**
     * Persists a new ACCEPTED job and counts it, unless its job_id is taken (false: the caller
     * answers as a repeat); a concurrent duplicate fails this transaction (the caller re-reads).
     */
    public boolean accept(Job job) {
        if (!taken(List.of(job)).isEmpty()) {
            return false;
        }
        em.persist(job);
        em.flush();
        int counted = em.createQuery("update WorkloadCounter c set c.accepted = c.accepted + 1 where c.workload = :w")
                .setParameter("w", job.getWorkload()).executeUpdate();
        if (counted != 1) {
            throw new IllegalStateException("no accepted counter for workload " + job.getWorkload());
        }
        return true;
    }

    /**
     * Persists new ACCEPTED jobs and counts them per workload, all in one transaction, and returns
     * the job_ids that were already taken (those jobs are not persisted: their callers answer as
     * repeats); a concurrent duplicate fails the whole group (the callers then accept one by one).
     */
    public Set<String> acceptAll(List<Job> jobs) {
        Set<String> taken = taken(jobs);
        jobs = jobs.stream().filter(job -> !taken.contains(job.getJobId())).toList();
        if (jobs.isEmpty()) {
            return taken;
        }
        jobs.forEach(em::persist);
        em.flush();
        jobs.stream().collect(Collectors.groupingBy(Job::getWorkload, Collectors.counting())).forEach((w, n) -> {
            int counted = em.createQuery("update WorkloadCounter c set c.accepted = c.accepted + :n"
                    + " where c.workload = :w").setParameter("n", n).setParameter("w", w).executeUpdate();
            if (counted != 1) {
                throw new IllegalStateException("no accepted counter for workload " + w);
            }
        });
        return taken;
    }

    /**
     * Which of these jobs' ids the ledger already holds: one statement, in the storing transaction
     * (a repeat costs no transaction of its own; a query, not the entity cache, so a purged job's id is free).
     */
    private Set<String> taken(List<Job> jobs) {
        return Set.copyOf(em.createQuery("select j.jobId from Job j where j.jobId in :ids", String.class)
                .setParameter("ids", jobs.stream().map(Job::getJobId).toList()).getResultList());
    }

    /**
     * The broker confirmed these references: the bulk form of {@link Job#published} (first publish
     * time kept, owed publish cleared, ACCEPTED → QUEUED; an outcome already reached stands), one
     * statement for the usual case where all are still ACCEPTED; no row is read back. The rows are
     * locked first in the order of their job ids, the order every transaction that locks several
     * jobs takes: a group of deliveries of these jobs then waits for this mark, or this mark for
     * it, and neither deadlocks (an UPDATE alone locks in whatever order its plan reads the rows).
     */
    public void publishedAll(List<String> jobIds, long at) {
        if (jobIds.size() > 1) {
            JobLocks.lockUnread(em, jobIds);
        }
        int queued = em.createQuery("update Job j set j.state = :queued, j.publishedAt = coalesce(j.publishedAt, :at),"
                        + " j.publishRequestedAt = null, j.rowVersion = j.rowVersion + 1"
                        + " where j.jobId in :ids and j.state = :accepted")
                .setParameter("queued", JobState.QUEUED).setParameter("at", at).setParameter("ids", jobIds)
                .setParameter("accepted", JobState.ACCEPTED).executeUpdate();
        if (queued < jobIds.size()) {
            // a delivery overtook the confirm, or the job ended meanwhile
            em.createQuery("update Job j set j.publishedAt = coalesce(j.publishedAt, :at), j.publishRequestedAt = null,"
                            + " j.rowVersion = j.rowVersion + 1 where j.jobId in :ids and j.state in :open"
                            + " and j.state <> :queued")
                    .setParameter("at", at).setParameter("ids", jobIds).setParameter("open", JobState.open())
                    .setParameter("queued", JobState.QUEUED).executeUpdate();
        }
    }

    /** The broker confirmed the reference. A delivery may already have overtaken this. */
    public void published(String jobId, long at) {
        Job job = lock(jobId);
        if (job != null && !job.getState().isTerminal()) {
            job.published(at);
        }
    }

    /** No lifetime left to publish with: the job ends here, nothing is published. */
    public void expireBeforePublish(String jobId, long at) {
        Job job = lock(jobId);
        if (job != null && job.getState().isPreClaim()) {
            job.end(Outcome.EXPIRED_BEFORE_PUBLISH, at);
        }
    }
}

package io.lastcall.ingress;

import io.lastcall.job.Job;
import io.lastcall.job.Outcome;
import io.lastcall.job.WorkloadCounter;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import java.util.List;
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

    /** Persists a new ACCEPTED job and counts it; a concurrent duplicate fails this transaction (the caller re-reads). */
    public void accept(Job job) {
        em.persist(job);
        em.flush();
        int counted = em.createQuery("update WorkloadCounter c set c.accepted = c.accepted + 1 where c.workload = :w")
                .setParameter("w", job.getWorkload()).executeUpdate();
        if (counted != 1) {
            throw new IllegalStateException("no accepted counter for workload " + job.getWorkload());
        }
    }

    /**
     * Persists new ACCEPTED jobs and counts them per workload, all in one transaction; a
     * concurrent duplicate fails the whole batch (the caller then accepts them one by one).
     */
    public void acceptAll(List<Job> jobs) {
        jobs.forEach(em::persist);
        em.flush();
        jobs.stream().collect(Collectors.groupingBy(Job::getWorkload, Collectors.counting())).forEach((w, n) -> {
            int counted = em.createQuery("update WorkloadCounter c set c.accepted = c.accepted + :n"
                    + " where c.workload = :w").setParameter("n", n).setParameter("w", w).executeUpdate();
            if (counted != 1) {
                throw new IllegalStateException("no accepted counter for workload " + w);
            }
        });
    }

    /** The broker confirmed these references: one transaction for the lot. */
    public void publishedAll(List<String> jobIds, long at) {
        for (String jobId : jobIds) {
            published(jobId, at);
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

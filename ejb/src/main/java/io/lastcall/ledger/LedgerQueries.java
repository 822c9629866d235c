package io.lastcall.ledger;

import io.lastcall.job.Attempt;
import io.lastcall.job.Job;
import io.lastcall.job.JobState;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads of the ledger, without locks: job views, and the candidates the reconciler rules then re-check.
 * They join a caller's transaction but never start one: a read without locks needs none, and a
 * container transaction around a single SELECT costs more than the SELECT (docs/performance.md).
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.SUPPORTS)
public class LedgerQueries {

    /** The job with its attempts, oldest first. */
    public record JobDetails(Job job, List<Attempt> attempts) {
    }

    @PersistenceContext(unitName = "ledger")
    private EntityManager em;

    public Optional<Job> find(String jobId) {
        return Optional.ofNullable(em.find(Job.class, jobId));
    }

    /** The jobs these ids name, by id (ids without a job are left out). */
    public java.util.Map<String, Job> findAll(java.util.Collection<String> jobIds) {
        if (jobIds.isEmpty()) {
            return java.util.Map.of();
        }
        return em.createQuery("select j from Job j where j.jobId in :ids", Job.class).setParameter("ids", jobIds)
                .getResultStream().collect(java.util.stream.Collectors.toMap(Job::getJobId, j -> j));
    }

    public Optional<JobDetails> details(String jobId) {
        Job job = em.find(Job.class, jobId);
        return job == null ? Optional.empty() : Optional.of(new JobDetails(job, attemptsOf(jobId)));
    }

    public List<Attempt> attemptsOf(String jobId) {
        return em.createQuery("select a from Attempt a where a.jobId = :id order by a.claimedAt", Attempt.class)
                .setParameter("id", jobId).getResultList();
    }

    /** One page of a search, in (accepted_at, job_id) order; never a full scan into memory. */
    public List<Job> search(JobFilter f) {
        StringBuilder jpql = new StringBuilder("select j from Job j where 1 = 1");
        java.util.Map<String, Object> parameters = new java.util.HashMap<>();
        condition(jpql, parameters, f.workload(), "j.workload = :workload", "workload");
        if (f.state() != null) {
            condition(jpql, parameters, JobState.valueOf(f.state()), "j.state = :state", "state");
        }
        condition(jpql, parameters, f.reason(), "j.reason = :reason", "reason");
        condition(jpql, parameters, f.from(), "j.acceptedAt >= :from", "from");
        condition(jpql, parameters, f.to(), "j.acceptedAt < :to", "to");
        condition(jpql, parameters, f.submittedBy(), "j.submittedBy = :submittedBy", "submittedBy");
        String beyond = f.newestFirst() ? "<" : ">";
        if (f.afterAcceptedAt() != null) {
            jpql.append(" and (j.acceptedAt ").append(beyond).append(" :afterAt or (j.acceptedAt = :afterAt and j.jobId ")
                    .append(beyond).append(" :afterId))");
            parameters.put("afterAt", f.afterAcceptedAt());
            parameters.put("afterId", f.afterJobId());
        }
        jpql.append(f.newestFirst() ? " order by j.acceptedAt desc, j.jobId desc" : " order by j.acceptedAt, j.jobId");
        jakarta.persistence.TypedQuery<Job> query = em.createQuery(jpql.toString(), Job.class);
        parameters.forEach(query::setParameter);
        return query.setMaxResults(Math.max(1, Math.min(f.limit(), JobFilter.MAX_LIMIT))).getResultList();
    }

    private static void condition(StringBuilder jpql, java.util.Map<String, Object> parameters, Object value,
            String clause, String name) {
        if (value != null) {
            jpql.append(" and ").append(clause);
            parameters.put(name, value);
        }
    }

    /** Jobs that ended in one minute, by workload and outcome: a point of the dashboard's chart. */
    public record EndedInMinute(long minute, String workload, String outcome, long jobs) {
    }

    /**
     * Ended jobs per minute since {@code since}, grouped in the database (one row per minute,
     * workload and outcome, however many jobs); uses the finished_at index.
     */
    public List<EndedInMinute> endedPerMinute(long since) {
        @SuppressWarnings("unchecked")
        List<Object[]> rows = em.createNativeQuery("SELECT finished_at / 60000, workload, state, COUNT(*) FROM lc_job"
                + " WHERE finished_at >= ? GROUP BY finished_at / 60000, workload, state ORDER BY 1")
                .setParameter(1, since).getResultList();
        return rows.stream().map(r -> new EndedInMinute(((Number) r[0]).longValue() * 60_000, (String) r[1],
                (String) r[2], ((Number) r[3]).longValue())).toList();
    }

    /** The attempts of these jobs, by job, oldest first. */
    public java.util.Map<String, List<Attempt>> attemptsOf(List<String> jobIds) {
        if (jobIds.isEmpty()) {
            return java.util.Map.of();
        }
        return em.createQuery("select a from Attempt a where a.jobId in :ids order by a.claimedAt", Attempt.class)
                .setParameter("ids", jobIds).getResultList().stream()
                .collect(java.util.stream.Collectors.groupingBy(Attempt::getJobId, java.util.LinkedHashMap::new,
                        java.util.stream.Collectors.toList()));
    }

    /** Jobs in one of these states whose deadline is before {@code expiringBefore}, earliest deadline first. */
    public List<Job> inStates(Set<JobState> states, long expiringBefore, int limit) {
        return em.createQuery("select j from Job j where j.state in :states and j.expiresAt < :before"
                        + " order by j.expiresAt", Job.class)
                .setParameter("states", states).setParameter("before", expiringBefore).setMaxResults(limit)
                .getResultList();
    }

    /** Jobs in one of these states, earliest deadline first. */
    public List<Job> inStates(Set<JobState> states, int limit) {
        return inStates(states, Long.MAX_VALUE, limit);
    }

    /** Jobs owed a publish since before {@code before}, the longest owed first. */
    public List<String> owedPublish(long before, int limit) {
        return em.createQuery("select j.jobId from Job j where j.publishRequestedAt is not null"
                + " and j.publishRequestedAt < :before and j.state in :states order by j.publishRequestedAt",
                String.class).setParameter("before", before)
                .setParameter("states", Set.of(JobState.ACCEPTED, JobState.QUEUED))
                .setMaxResults(limit).getResultList();
    }

    /** Attempts of this instance from another boot that never reached an outcome. */
    public List<Attempt> leftByPreviousBoots(String instanceId, String bootId, int limit) {
        return em.createQuery("select a from Attempt a where a.instanceId = :instance and a.bootId <> :boot"
                        + " and a.state in :open order by a.claimedAt", Attempt.class)
                .setParameter("instance", instanceId).setParameter("boot", bootId)
                .setParameter("open", Set.of(Attempt.State.CLAIMED, Attempt.State.HANDED_OFF))
                .setMaxResults(limit).getResultList();
    }

    /**
     * Open attempts of other boots whose lease does not hold at {@code leaseSince} (no renewal
     * since then, or no lease at all: a boot from before leases existed), oldest claim first.
     */
    public List<Attempt> leftByLapsedLeases(String bootId, long leaseSince, int limit) {
        return em.createQuery("select a from Attempt a where a.bootId <> :boot and a.state in :open"
                        + " and not exists (select l from InstanceLease l where l.bootId = a.bootId"
                        + " and l.heartbeatAt >= :since) order by a.claimedAt", Attempt.class)
                .setParameter("boot", bootId).setParameter("since", leaseSince)
                .setParameter("open", Set.of(Attempt.State.CLAIMED, Attempt.State.HANDED_OFF))
                .setMaxResults(limit).getResultList();
    }
}

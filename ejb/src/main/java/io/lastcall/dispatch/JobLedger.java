package io.lastcall.dispatch;

import io.lastcall.job.Attempt;
import io.lastcall.job.Deadline;
import io.lastcall.job.DeadlineSemantics;
import io.lastcall.job.ExpiryReason;
import io.lastcall.job.GateDecision;
import io.lastcall.job.Job;
import io.lastcall.job.JobState;
import io.lastcall.job.QuarantinedMessage;
import io.lastcall.job.Reference;
import io.lastcall.job.RetryTiers;
import io.lastcall.job.BudgetLock;
import io.lastcall.job.SubjectRevision;
import io.lastcall.policy.WorkloadPolicy;
import io.lastcall.policy.Pricing;
import io.lastcall.receipt.DeliveryLog;
import io.lastcall.receipt.ReceivedMessage;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.logging.Logger;

/**
 * Every state change of a job, each in one short container-managed transaction of its own that
 * locks the job row first ({@code SELECT … FOR UPDATE}, plus the row version): ingress accept and
 * publish, receipt, the final gate and claim, handoff, settlement, quarantine.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class JobLedger {

    private static final Logger LOG = Logger.getLogger(JobLedger.class.getName());

    /** What receipt found: go on to the gate, or stop here (and acknowledge). */
    public record Receipt(boolean proceed, String jobId, String workload, long expiresAt, DeadlineSemantics semantics,
            long minExecutionMs, String why) {
        static Receipt stop(String jobId, String why) {
            return new Receipt(false, jobId, null, 0, null, 0, why);
        }
    }

    /** What the gate decided; for a claim, everything the call needs. */
    public record GateResult(GateDecision decision, String jobId, String attemptId, String workload, String model,
            String payload, long expiresAt, DeadlineSemantics semantics) {
    }

    /** The job with its attempts, oldest first. */
    public record JobDetails(Job job, List<Attempt> attempts) {
    }

    @PersistenceContext(unitName = "ledger")
    private EntityManager em;

    @EJB
    private DeliveryLog deliveries;

    private Job lock(String jobId) {
        return em.find(Job.class, jobId, LockModeType.PESSIMISTIC_WRITE);
    }

    // ---- ingress

    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public Optional<Job> find(String jobId) {
        return Optional.ofNullable(em.find(Job.class, jobId));
    }

    /** Persists a new ACCEPTED job; a concurrent duplicate fails this transaction (the caller re-reads). */
    public Job accept(Job job) {
        em.persist(job);
        em.flush();
        return job;
    }

    /** The broker confirmed the reference. A delivery may already have overtaken this. */
    public void published(String jobId, long at) {
        Job job = lock(jobId);
        if (job != null && !job.getState().isTerminal()) {
            job.published(at);
        }
    }

    /** No lifetime left to publish with: the job ends here, nothing is published. */
    public Job expireBeforePublish(String jobId, long at) {
        Job job = lock(jobId);
        if (job.getState().isPreClaim()) {
            job.end(JobState.EXPIRED_NOT_STARTED, ExpiryReason.BEFORE_PUBLISH.name(), at);
        }
        return job;
    }

    // ---- worker

    /**
     * Records the delivery and checks the reference against the ledger: untrusted references are
     * quarantined, terminal and already-claimed jobs stop here (no resend), the rest wait for a permit.
     */
    public Receipt receive(ReceivedMessage message, Set<Integer> schemaVersions, long now) {
        deliveries.record(message);
        Reference ref;
        try {
            ref = Reference.parse(message.body());
        } catch (Reference.Malformed e) {
            return quarantine(message, null, QuarantinedMessage.Reason.REFERENCE_MALFORMED, e.getMessage(), now);
        }
        if (!schemaVersions.contains(ref.schemaVersion())) {
            return quarantine(message, ref.jobId(), QuarantinedMessage.Reason.SCHEMA_UNSUPPORTED,
                    "schema_version " + ref.schemaVersion(), now);
        }
        Job job = lock(ref.jobId());
        if (job == null) {
            return quarantine(message, ref.jobId(), QuarantinedMessage.Reason.REFERENCE_UNKNOWN_JOB,
                    "no job " + ref.jobId() + " in the ledger", now);
        }
        if (job.getExpiresAt() != ref.expiresAt()) {
            return quarantine(message, ref.jobId(), QuarantinedMessage.Reason.REFERENCE_DEADLINE_MISMATCH,
                    "message says expires_at " + ref.expiresAt() + ", the ledger " + job.getExpiresAt(), now);
        }
        if (job.getState().isTerminal()) {
            return Receipt.stop(job.getJobId(), "already " + job.getState());
        }
        if (!job.getState().isPreClaim()) {
            // a redelivery after a crash around handoff: never a blind resend; the reconciler decides
            return Receipt.stop(job.getJobId(), "already " + job.getState() + "; left to the reconciler");
        }
        job.received(now);
        return new Receipt(true, job.getJobId(), job.getWorkload(), job.getExpiresAt(), job.getDeadlineSemantics(),
                job.getMinExecutionMs(), null);
    }

    private Receipt quarantine(ReceivedMessage message, String jobId, QuarantinedMessage.Reason reason, String detail,
            long now) {
        LOG.warning("Quarantined message " + message.messageId() + " from " + message.queue() + ": " + reason + " ("
                + detail + ")");
        em.persist(new QuarantinedMessage(message.messageId(), message.queue(), jobId, reason, detail, message.body(),
                now));
        return Receipt.stop(jobId, "quarantined: " + reason);
    }

    /**
     * The final gate (SPEC §3.3): with the row locked, either a terminal outcome or the single
     * dispatch claim — new generation, attempt, reservation — in this one transaction.
     *
     * @param permitAt when the dispatch permit was granted, null if none is held
     */
    public GateResult gate(String jobId, long now, Long permitAt, long clockUncertaintyMs, WorkloadPolicy policy) {
        Job job = lock(jobId);
        SubjectRevision subject = em.find(SubjectRevision.class, job.getSubject());
        boolean superseded = subject != null && subject.supersedes(job.getSourceRevision());
        long remaining = job.remainingForDispatch(now, clockUncertaintyMs);
        GateDecision decision = GateDecision.decide(job.getState(), remaining, job.isCancelRequested(), superseded,
                true, permitAt != null);
        if (decision == GateDecision.CLAIM && policy.budget() != null && !budgetFits(job, policy, now)) {
            decision = GateDecision.DENY_BUDGET;
        }
        String attemptId = null;
        switch (decision) {
            case EXPIRE -> job.end(JobState.EXPIRED_NOT_STARTED, ExpiryReason.BEFORE_DISPATCH.name(), now);
            case CANCEL -> job.end(JobState.CANCELED, "CANCELED", now);
            case SUPERSEDE -> job.end(JobState.SUPERSEDED, "SUPERSEDED", now);
            case DENY_BUDGET -> job.end(JobState.BUDGET_DENIED, "BUDGET_DENIED", now);
            case CLAIM -> {
                long generation = job.claim(now, permitAt);
                attemptId = UUID.randomUUID().toString();
                em.persist(new Attempt(attemptId, jobId, job.getWorkload(), generation, job.getEstimate(),
                        job.getEstimateRevision(), now));
            }
            case NOT_CLAIMABLE, NO_PERMIT -> {
            }
        }
        return new GateResult(decision, jobId, attemptId, job.getWorkload(), job.getModel(), job.getPayload(),
                job.getExpiresAt(), job.getDeadlineSemantics());
    }

    /**
     * Locks the workload's budget row, then checks spend plus reservations of this period plus
     * this estimate against the budget; the caller's claim then reserves in the same transaction.
     */
    private boolean budgetFits(Job job, WorkloadPolicy policy, long now) {
        BudgetLock lock = em.find(BudgetLock.class, job.getWorkload(), LockModeType.PESSIMISTIC_WRITE);
        if (lock == null) {
            throw new IllegalStateException("no budget row for workload " + job.getWorkload()
                    + "; ensureBudgetRow must run first");
        }
        BigDecimal used = em.createQuery("select coalesce(sum(a.reserved), 0) + coalesce(sum(a.cost), 0)"
                        + " from Attempt a where a.workload = :w and a.claimedAt >= :since", BigDecimal.class)
                .setParameter("w", job.getWorkload()).setParameter("since", policy.budgetPeriodStart(now))
                .getSingleResult();
        boolean fits = used.add(job.getEstimate()).compareTo(policy.budget()) <= 0;
        if (fits) {
            lock.claimed();
        }
        return fits;
    }

    /** Creates the budget row of a workload if it is missing (a concurrent creator makes this one fail: harmless). */
    public void ensureBudgetRow(String workload) {
        if (em.find(BudgetLock.class, workload) == null) {
            em.persist(new BudgetLock(workload));
            em.flush();
        }
    }

    /**
     * Commits HANDED_OFF before the request leaves. A claim whose deadline passed meanwhile is
     * revoked instead (reservation released): it never reached the wire.
     *
     * @return true when the caller may send the request now
     */
    public boolean handOff(String attemptId, long now, long clockUncertaintyMs) {
        Attempt attempt = em.find(Attempt.class, attemptId);
        Job job = lock(attempt.getJobId());
        if (job.getState() != JobState.CLAIMED || job.getGeneration() != attempt.getGeneration()) {
            return false;
        }
        if (job.remainingForDispatch(now, clockUncertaintyMs) <= 0) {
            attempt.revoke(now);
            job.end(JobState.EXPIRED_NOT_STARTED, ExpiryReason.BEFORE_DISPATCH.name(), now);
            return false;
        }
        job.handedOff(now);
        attempt.handedOff(now);
        return true;
    }

    /**
     * Records the call's outcome, usage and cost. An unknown outcome keeps its reservation. A
     * failure proven not to have run goes back to the queue through a retry tier that ends before
     * the deadline, if attempts are left: the returned tier (ms) is what the caller publishes to
     * after this commits; 0 means nothing to publish.
     */
    public long settle(String attemptId, ModelResult result, long finishedAt, long checkToHandoffMs, Pricing pricing,
            WorkloadPolicy policy, List<Long> retryTiersMs, long clockUncertaintyMs) {
        Attempt attempt = em.find(Attempt.class, attemptId);
        Job job = lock(attempt.getJobId());
        boolean keepLateResults = policy.keepLateResults();
        switch (result.kind()) {
            case COMPLETED -> {
                boolean late = Deadline.isLate(job.getExpiresAt(), finishedAt, job.getDeadlineSemantics());
                long prompt = result.promptTokens() == null ? 0 : result.promptTokens();
                long completion = result.completionTokens() == null ? 0 : result.completionTokens();
                BigDecimal cost = pricing.cost(job.getModel(), prompt, completion);
                attempt.completed(finishedAt, result.promptTokens(), result.completionTokens(), cost, late,
                        result.httpStatus(), late && !keepLateResults ? null : result.content(), checkToHandoffMs);
                job.end(JobState.COMPLETED, late ? "LATE" : null, finishedAt);
            }
            case FAILED -> {
                attempt.failed(finishedAt, result.httpStatus(), result.error(), result.retryable(), checkToHandoffMs);
                String why = result.httpStatus() == null ? "NOT_REACHED" : "HTTP_" + result.httpStatus();
                if (!result.retryable()) {
                    job.end(JobState.EXECUTION_FAILED, why, finishedAt);
                    break;
                }
                int attempts = em.createQuery("select count(a) from Attempt a where a.jobId = :id", Long.class)
                        .setParameter("id", job.getJobId()).getSingleResult().intValue();
                RetryTiers.Choice choice = RetryTiers.choose(retryTiersMs, attempts, policy.maxAttempts(),
                        job.remainingForDispatch(finishedAt, clockUncertaintyMs));
                switch (choice.kind()) {
                    case RETRY -> {
                        job.requeue(finishedAt);
                        return choice.tierMs();
                    }
                    case NO_TIER_FITS -> job.end(JobState.EXPIRED_NOT_STARTED, ExpiryReason.BEFORE_DISPATCH.name(),
                            finishedAt);
                    case ATTEMPTS_EXHAUSTED -> job.end(JobState.EXECUTION_FAILED, why + "_ATTEMPTS_EXHAUSTED",
                            finishedAt);
                }
            }
            case UNKNOWN -> {
                attempt.unknown(finishedAt, result.error(), checkToHandoffMs);
                job.end(JobState.OUTCOME_UNKNOWN, "NO_RESULT", finishedAt);
            }
        }
        return 0;
    }

    // ---- dead letters

    /**
     * A message the broker dead-lettered: the job's outcome is recorded from the ledger's own
     * deadline. Never republished. {@code deathReason} is x-first-death-reason.
     */
    public void deadLettered(ReceivedMessage message, String deathReason, Set<Integer> schemaVersions, long now) {
        deliveries.record(message);
        Reference ref;
        try {
            ref = Reference.parse(message.body());
        } catch (Reference.Malformed e) {
            quarantine(message, null, QuarantinedMessage.Reason.REFERENCE_MALFORMED,
                    "dead-lettered (" + deathReason + "): " + e.getMessage(), now);
            return;
        }
        Job job = lock(ref.jobId());
        if (job == null) {
            quarantine(message, ref.jobId(), QuarantinedMessage.Reason.REFERENCE_UNKNOWN_JOB,
                    "dead-lettered (" + deathReason + "): no such job", now);
            return;
        }
        if (job.getExpiresAt() != ref.expiresAt() || !schemaVersions.contains(ref.schemaVersion())) {
            quarantine(message, ref.jobId(), QuarantinedMessage.Reason.REFERENCE_DEADLINE_MISMATCH,
                    "dead-lettered (" + deathReason + "): expires_at " + ref.expiresAt() + " vs the ledger's "
                            + job.getExpiresAt(), now);
            return;
        }
        if (!job.getState().isPreClaim()) {
            return; // already ended, or claimed: its outcome comes from the worker or the reconciler
        }
        if ("expired".equals(deathReason)) {
            job.end(JobState.EXPIRED_NOT_STARTED, ExpiryReason.IN_BROKER.name(), now);
        } else {
            job.end(JobState.QUARANTINED, "DEAD_LETTER_" + String.valueOf(deathReason).toUpperCase(Locale.ROOT), now);
        }
    }

    // ---- operators

    /** What a cancel request came to. */
    public enum CancelResult { CANCELED, ALREADY_CLAIMED, ALREADY_ENDED, UNKNOWN_JOB }

    /** Cancels a job that is not claimed yet; serialized with the gate by the row lock, so exactly one wins. */
    public CancelResult cancel(String jobId, long now) {
        Job job = lock(jobId);
        if (job == null) {
            return CancelResult.UNKNOWN_JOB;
        }
        if (job.getState().isTerminal()) {
            return CancelResult.ALREADY_ENDED;
        }
        if (!job.getState().isPreClaim()) {
            return CancelResult.ALREADY_CLAIMED;
        }
        job.requestCancel();
        job.end(JobState.CANCELED, "CANCELED", now);
        return CancelResult.CANCELED;
    }

    /** Announces a subject's newest revision; its not-yet-claimed jobs of other revisions end SUPERSEDED. */
    public List<String> supersede(String subject, String revision, long now) {
        SubjectRevision latest = em.find(SubjectRevision.class, subject, LockModeType.PESSIMISTIC_WRITE);
        if (latest == null) {
            em.persist(new SubjectRevision(subject, revision, now));
        } else {
            latest.announce(revision, now);
        }
        List<String> ids = em.createQuery("select j.jobId from Job j where j.subject = :s and j.sourceRevision <> :r",
                String.class).setParameter("s", subject).setParameter("r", revision).getResultList();
        List<String> superseded = new java.util.ArrayList<>();
        for (String id : ids) {
            Job job = lock(id);
            if (job.getState().isPreClaim()) {
                job.end(JobState.SUPERSEDED, "SUPERSEDED_BY_" + revision, now);
                superseded.add(id);
            }
        }
        return superseded;
    }

    // ---- reconciler: each rule re-checks under the row lock, so concurrent runs never double-transition

    /** Not claimed and past its deadline (plus grace): the broker or a lost message never told us. */
    public boolean expireOverdue(String jobId, long now, long graceMs) {
        Job job = lock(jobId);
        if (job == null || !job.getState().isPreClaim() || now <= job.getExpiresAt() + graceMs) {
            return false;
        }
        job.end(JobState.EXPIRED_NOT_STARTED, job.getState() == JobState.QUEUED ? ExpiryReason.IN_BROKER.name()
                : ExpiryReason.RECONCILED.name(), now);
        return true;
    }

    /** A claim that never reached the wire (crash between claim and handoff): revoked, reservation released. */
    public boolean revokeStaleClaim(String jobId, long now, long claimTimeoutMs, long clockUncertaintyMs) {
        Job job = lock(jobId);
        if (job == null || job.getState() != JobState.CLAIMED || job.getCheckedAt() > now - claimTimeoutMs) {
            return false;
        }
        for (Attempt a : attemptsOf(jobId)) {
            if (a.getState() == Attempt.State.CLAIMED) {
                a.revoke(now);
            }
        }
        if (job.remainingForDispatch(now, clockUncertaintyMs) > 0) {
            job.requeue(now);
        } else {
            job.end(JobState.EXPIRED_NOT_STARTED, ExpiryReason.RECONCILED.name(), now);
        }
        return true;
    }

    /**
     * Handed off, and no result although the call's own timeout (counted from the handoff) and the
     * grace have passed: OUTCOME_UNKNOWN, the exposure stays reserved.
     */
    public boolean markUnknown(String jobId, long now, WorkloadPolicy policy, long graceMs) {
        Job job = lock(jobId);
        if (job == null || job.getState() != JobState.HANDED_OFF) {
            return false;
        }
        long callTimeout = policy.callTimeoutMs(job.getExpiresAt(), job.getHandedOffAt(), job.getDeadlineSemantics());
        if (now <= job.getHandedOffAt() + callTimeout + graceMs) {
            return false;
        }
        for (Attempt a : attemptsOf(jobId)) {
            if (a.getState() == Attempt.State.HANDED_OFF) {
                a.unknown(now, "no result recorded by " + now + " (reconciler)", null);
            }
        }
        job.end(JobState.OUTCOME_UNKNOWN, ExpiryReason.RECONCILED.name(), now);
        return true;
    }

    /**
     * Takes the turn to publish an owed reference: true if it was owed since before {@code before}
     * and is now marked as being published at {@code now}, so a concurrent reconciler skips it.
     */
    public boolean takePublishTurn(String jobId, long before, long now) {
        Job job = lock(jobId);
        if (job == null || job.getPublishRequestedAt() == null || job.getPublishRequestedAt() >= before
                || !(job.getState() == JobState.ACCEPTED || job.getState() == JobState.QUEUED)) {
            return false;
        }
        job.publishAttempted(now);
        return true;
    }

    /** Jobs in one of these states; what the reconciler looks at. */
    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public List<Job> inStates(Set<JobState> states, int limit) {
        return em.createQuery("select j from Job j where j.state in :states order by j.expiresAt", Job.class)
                .setParameter("states", states).setMaxResults(limit).getResultList();
    }

    /** Jobs owed a publish since before {@code before}. */
    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public List<String> owedPublish(long before, int limit) {
        return em.createQuery("select j.jobId from Job j where j.publishRequestedAt is not null"
                + " and j.publishRequestedAt < :before", String.class).setParameter("before", before)
                .setMaxResults(limit).getResultList();
    }

    private List<Attempt> attemptsOf(String jobId) {
        return em.createQuery("select a from Attempt a where a.jobId = :id order by a.claimedAt", Attempt.class)
                .setParameter("id", jobId).getResultList();
    }

    // ---- views

    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public Optional<JobDetails> details(String jobId) {
        Job job = em.find(Job.class, jobId);
        if (job == null) {
            return Optional.empty();
        }
        return Optional.of(new JobDetails(job, attemptsOf(jobId)));
    }

    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public List<QuarantinedMessage> quarantined(int limit) {
        return em.createQuery("select q from QuarantinedMessage q order by q.id desc", QuarantinedMessage.class)
                .setMaxResults(Math.max(1, Math.min(limit, 10_000))).getResultList();
    }
}

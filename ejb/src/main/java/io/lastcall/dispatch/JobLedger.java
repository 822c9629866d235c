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
    public record Receipt(boolean proceed, String jobId, long expiresAt, DeadlineSemantics semantics,
            long minExecutionMs, String why) {
        static Receipt stop(String jobId, String why) {
            return new Receipt(false, jobId, 0, null, 0, why);
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
        return new Receipt(true, job.getJobId(), job.getExpiresAt(), job.getDeadlineSemantics(),
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
    public GateResult gate(String jobId, long now, Long permitAt, long clockUncertaintyMs) {
        Job job = lock(jobId);
        GateDecision decision = GateDecision.decide(job.getState(), job.remainingForDispatch(now, clockUncertaintyMs),
                job.isCancelRequested(), false, true, permitAt != null);
        String attemptId = null;
        switch (decision) {
            case EXPIRE -> job.end(JobState.EXPIRED_NOT_STARTED, ExpiryReason.BEFORE_DISPATCH.name(), now);
            case CANCEL -> job.end(JobState.CANCELED, "CANCELED", now);
            case SUPERSEDE -> job.end(JobState.SUPERSEDED, "SUPERSEDED", now);
            case DENY_BUDGET -> job.end(JobState.BUDGET_DENIED, "BUDGET_DENIED", now);
            case CLAIM -> {
                long generation = job.claim(now, permitAt);
                attemptId = UUID.randomUUID().toString();
                em.persist(new Attempt(attemptId, jobId, generation, job.getEstimate(), job.getEstimateRevision(), now));
            }
            case NOT_CLAIMABLE, NO_PERMIT -> {
            }
        }
        return new GateResult(decision, jobId, attemptId, job.getWorkload(), job.getModel(), job.getPayload(),
                job.getExpiresAt(), job.getDeadlineSemantics());
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

    /** Records the call's outcome, usage and cost. An unknown outcome keeps its reservation. */
    public void settle(String attemptId, ModelResult result, long finishedAt, long checkToHandoffMs, Pricing pricing,
            boolean keepLateResults) {
        Attempt attempt = em.find(Attempt.class, attemptId);
        Job job = lock(attempt.getJobId());
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
                attempt.failed(finishedAt, result.httpStatus(), result.error(), checkToHandoffMs);
                job.end(JobState.EXECUTION_FAILED, result.httpStatus() == null ? "NOT_REACHED"
                        : "HTTP_" + result.httpStatus(), finishedAt);
            }
            case UNKNOWN -> {
                attempt.unknown(finishedAt, result.error(), checkToHandoffMs);
                job.end(JobState.OUTCOME_UNKNOWN, "NO_RESULT", finishedAt);
            }
        }
    }

    // ---- views

    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public Optional<JobDetails> details(String jobId) {
        Job job = em.find(Job.class, jobId);
        if (job == null) {
            return Optional.empty();
        }
        List<Attempt> attempts = em.createQuery("select a from Attempt a where a.jobId = :id order by a.claimedAt",
                Attempt.class).setParameter("id", jobId).getResultList();
        return Optional.of(new JobDetails(job, attempts));
    }

    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public List<QuarantinedMessage> quarantined(int limit) {
        return em.createQuery("select q from QuarantinedMessage q order by q.id desc", QuarantinedMessage.class)
                .setMaxResults(Math.max(1, Math.min(limit, 10_000))).getResultList();
    }
}

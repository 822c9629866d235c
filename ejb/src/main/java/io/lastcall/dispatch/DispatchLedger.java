package io.lastcall.dispatch;

import io.lastcall.instance.Incarnation;
import io.lastcall.job.Attempt;
import io.lastcall.job.BackendPause;
import io.lastcall.job.BackendRate;
import io.lastcall.job.BudgetLock;
import io.lastcall.job.Deadline;
import io.lastcall.job.GateDecision;
import io.lastcall.job.Job;
import io.lastcall.job.JobState;
import io.lastcall.job.Outcome;
import io.lastcall.job.RetryTiers;
import io.lastcall.job.SubjectRevision;
import io.lastcall.metrics.LatencyClass;
import io.lastcall.metrics.ModelLatencies;
import io.lastcall.policy.AdmissionMode;
import io.lastcall.policy.Pricing;
import io.lastcall.policy.Backend;
import io.lastcall.policy.WorkloadPolicy;
import io.lastcall.receipt.ReceivedMessage;
import io.lastcall.schema.JobLocks;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.math.BigDecimal;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The worker path's transactions (docs/design.md, "Transactions"), each short, each locking the
 * job row first ({@code SELECT … FOR UPDATE} plus the row version): receipt, the final gate and
 * claim, the handoff check, a request never sent, settlement. Every deadline check reads the
 * clock after the row lock is held.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class DispatchLedger {

    /** What receipt found: go on to the gate, or stop here (and acknowledge). */
    public record Receipt(boolean proceed, String jobId, String workload, Deadline deadline) {
        static Receipt stop(String jobId) {
            return new Receipt(false, jobId, null, null);
        }
    }

    /**
     * The gate's decision, what a claim needs to dispatch, the job's trace up to this check (for
     * metrics), until when the backend is paused (for {@link GateDecision#WAIT_FOR_BACKEND}), and
     * the latency class its answer's time is recorded under.
     */
    public record GateResult(GateDecision decision, String jobId, String attemptId, String workload, String payload,
            Deadline deadline, Long publishedAt, Long receivedAt, long checkedAt, long pausedUntil,
            LatencyClass latencyClass) {
    }

    /** A delivery that holds a permit, and what its receipt and gate need. */
    public record Delivery(ReceivedMessage message, Set<Integer> schemaVersions, boolean logDelivery,
            long clockUncertaintyMs, Function<String, WorkloadPolicy> policies, Function<String, Backend> backends,
            Predicate<String> backendHasLine) {
    }

    /**
     * A finished call's result and what recording it needs (the policies as they were when it was
     * handed off); {@code jobId} is the attempt's job, whose row is locked before the attempt is read.
     */
    public record Settlement(String jobId, String attemptId, ModelResult result, Long checkToLastByteMs, Pricing pricing,
            WorkloadPolicy policy, List<Long> retryTiersMs, long clockUncertaintyMs, Backend backend,
            long maxPauseMs) {
    }

    /** What receipt found and, when the gate could be passed in the same transaction, the gate's result (else null). */
    public record Admission(Receipt receipt, GateResult gate) {
    }

    /**
     * Whether the request may be written, and until when: the handoff authorization's end, never
     * past the deadline minus the margin, by the monotonic clock ({@code writeByNanos},
     * System.nanoTime) and by the wall clock ({@code writeByMillis}, epoch ms).
     */
    public record Authorization(boolean granted, long checkNanos, long writeByNanos, long writeByMillis,
            long retryTierMs, boolean again) {
        static final Authorization REFUSED = new Authorization(false, 0, 0, 0, 0, false);
        /** Not granted and nothing recorded: the deadline passed during the handoff's own writes; check again. */
        static final Authorization AGAIN = new Authorization(false, 0, 0, 0, 0, true);

        Authorization(boolean granted, long checkNanos, long writeByNanos, long writeByMillis, long retryTierMs) {
            this(granted, checkNanos, writeByNanos, writeByMillis, retryTierMs, false);
        }

        /** Refused, and the job goes through this retry tier (ms) after the commit. */
        static Authorization refusedRetrying(long retryTierMs) {
            return new Authorization(false, 0, 0, 0, retryTierMs);
        }
    }

    @PersistenceContext(unitName = "ledger")
    private EntityManager em;

    @EJB
    private MessageReceipt receipt;

    @EJB
    private Incarnation incarnation;

    /** This boot's ids, asked of {@link Incarnation} once per bean instance rather than per claim. */
    private Incarnation.Identity boot;

    @Inject
    Clock clock;

    @Resource
    TransactionSynchronizationRegistry transaction;

    @Inject
    ModelLatencies latencies;

    private Job lock(String jobId) {
        return em.find(Job.class, jobId, LockModeType.PESSIMISTIC_WRITE);
    }

    /** Locks the attempt's job, then reads the attempt again: what another transaction changed before the lock counts. */
    private Job lockedFor(Attempt attempt) {
        Job job = lock(attempt.getJobId());
        em.refresh(attempt);
        return job;
    }

    /**
     * Records the delivery and checks the reference against the ledger: unreadable or untrusted
     * messages are quarantined, terminal and already-claimed jobs stop here (no resend), the rest
     * wait for a permit.
     */
    public Receipt receive(ReceivedMessage message, Set<Integer> schemaVersions, boolean logDelivery) {
        long now = clock.millis();
        Job job = receipt.trustedJob(message, schemaVersions, "", logDelivery, now).orElse(null);
        return received(job, now);
    }

    /**
     * Receipt and the final gate in one transaction, for a delivery that holds a permit already (one
     * was free and nobody waited): under normal load this saves a transaction and a row lock per
     * job. The permit counts from the receipt. A budgeted workload whose budget row does not exist
     * yet is left to {@link #gate} (the admission's gate is then null).
     */
    public Admission receiveAndGate(Delivery delivery) {
        return receiveAndGate(delivery, new TransactionReads(em));
    }

    private Admission receiveAndGate(Delivery delivery, TransactionReads reads) {
        long now = clock.millis();
        Job job = receipt.trustedJob(delivery.message(), delivery.schemaVersions(), "", delivery.logDelivery(), now)
                .orElse(null);
        Receipt received = received(job, now);
        if (!received.proceed()) {
            return new Admission(received, null);
        }
        WorkloadPolicy policy = delivery.policies().apply(job.getWorkload());
        Backend backend = delivery.backends().apply(job.getWorkload());
        if (policy.budget() != null && em.find(BudgetLock.class, job.getWorkload()) == null
                || backend.rateLimited() && em.find(BackendRate.class, backend.key()) == null
                || delivery.backendHasLine().test(backend.key())) {
            // no gate here: the rows are created first, or the job joins the jobs waiting for its backend
            return new Admission(received, null);
        }
        return new Admission(received, decide(job, now, delivery.clockUncertaintyMs(), policy, backend, false, reads));
    }

    /**
     * Several deliveries' receipt and gate in one transaction ({@link LedgerGroups}), each exactly as
     * {@link #receiveAndGate} records it alone, under its own job's row lock. Returns each one's
     * admission, in order. If any of them fails, none is recorded.
     */
    public List<Admission> receiveAndGateAll(List<Delivery> deliveries) {
        List<Job> locked = JobLocks.lock(em, deliveries.stream()
                .flatMap(d -> d.message().referencedJobId(d.schemaVersions()).stream()).toList());
        TransactionReads reads = new TransactionReads(em).withSubjects(locked.stream().map(Job::getSubject).toList());
        return deliveries.stream().map(d -> receiveAndGate(d, reads)).toList();
    }

    private static Receipt received(Job job, long now) {
        if (job == null) {
            return Receipt.stop(null);
        }
        if (!job.getState().isPreClaim()) {
            // terminal: its outcome stands; claimed or handed off (a redelivery after a crash):
            // never a blind resend, the reconciler decides
            return Receipt.stop(job.getJobId());
        }
        job.received(now);
        return new Receipt(true, job.getJobId(), job.getWorkload(), job.deadline());
    }

    /**
     * The final gate (docs/design.md §3.3): with the row locked, either a terminal outcome or the single
     * dispatch claim — new generation, attempt, reservation — in this one transaction.
     *
     * @param permitAt when the dispatch permit was granted, null if none is held
     * @param backend  the job's model backend: a pause it asked for, or its full per-minute limits, hold the claim back
     */
    public GateResult gate(String jobId, Long permitAt, long clockUncertaintyMs, WorkloadPolicy policy, Backend backend) {
        return decide(lock(jobId), permitAt, clockUncertaintyMs, policy, backend, false, new TransactionReads(em));
    }

    /**
     * The gate, without a permit, for a job whose last dispatchable instant came while it waited
     * for its backend's turn: an expiry then carries the backend's reason
     * ({@link GateDecision#givenWaitedForBackend}).
     */
    public GateResult gateAfterBackendWait(String jobId, long clockUncertaintyMs, WorkloadPolicy policy,
            Backend backend) {
        return decide(lock(jobId), null, clockUncertaintyMs, policy, backend, true, new TransactionReads(em));
    }

    private Incarnation.Identity boot() {
        if (boot == null) {
            boot = incarnation.identity();
        }
        return boot;
    }

    /** The gate on a job whose row this transaction holds locked. */
    private GateResult decide(Job job, Long permitAt, long clockUncertaintyMs, WorkloadPolicy policy, Backend backend,
            boolean waitedForBackend, TransactionReads reads) {
        String jobId = job.getJobId();
        long now = clock.millis();
        SubjectRevision subject = reads.subject(job.getSubject());
        boolean superseded = subject != null && subject.supersedes(job.getSourceRevision());
        long remaining = job.remainingForDispatch(now, clockUncertaintyMs);
        GateDecision decision = GateDecision.decide(job.getState(), remaining, job.isCancelRequested(), superseded,
                true, permitAt != null);
        long lastDispatchAt = job.deadline().lastDispatchAt(clockUncertaintyMs);
        if (waitedForBackend) {
            decision = decision.givenWaitedForBackend(reads.pausedUntil(backend.key()) >= lastDispatchAt,
                    backend.rateLimited());
        }
        long pausedUntil = decision == GateDecision.CLAIM ? reads.pausedUntil(backend.key()) : 0;
        decision = decision.givenPause(pausedUntil, now, lastDispatchAt);
        LatencyClass latencyClass = LatencyClass.of(backend.key(), job.getModel(), job.getOutputTokens());
        decision = givenForecast(decision, job, latencyClass, now, policy);
        if (decision == GateDecision.CLAIM && policy.budget() != null && !budgetFits(job, policy, now)) {
            decision = GateDecision.DENY_BUDGET;
        }
        if (decision == GateDecision.CLAIM && backend.rateLimited()) {
            // last: what the claim takes from the backend's minute is only taken when it claims
            long readyAt = rateRow(backend, now).take(now, job.getTokenEstimate(), backend.plannedRequestsPerMinute(),
                    backend.plannedTokensPerMinute());
            decision = decision.givenRateLimit(readyAt, now, lastDispatchAt);
            pausedUntil = Math.max(pausedUntil, readyAt);
        }
        String attemptId = null;
        switch (decision) {
            case EXPIRE -> job.end(Outcome.EXPIRED_BEFORE_DISPATCH, now);
            case CANCEL -> job.end(Outcome.CANCELED, now);
            case SUPERSEDE -> job.end(Outcome.SUPERSEDED, now);
            case DENY_BUDGET -> job.end(Outcome.BUDGET_DENIED, now);
            case EXPIRE_BACKEND_PAUSED -> job.end(Outcome.EXPIRED_BACKEND_PAUSED, now);
            case EXPIRE_RATE_LIMITED -> job.end(Outcome.EXPIRED_RATE_LIMITED, now);
            case EXPIRE_PREDICTED_LATE -> job.end(Outcome.EXPIRED_PREDICTED_LATE, now);
            case CLAIM -> {
                long generation = job.claim(now, permitAt);
                attemptId = UUID.randomUUID().toString();
                em.persist(new Attempt(attemptId, jobId, job.getWorkload(), generation, job.getEstimate(),
                        job.getEstimateRevision(), now, boot().instanceId(), boot().bootId()));
            }
            case NOT_CLAIMABLE, NO_PERMIT, WAIT_FOR_BACKEND -> {
            }
        }
        return new GateResult(decision, jobId, attemptId, job.getWorkload(),
                decision == GateDecision.CLAIM ? job.getPayload() : null, job.deadline(), job.getPublishedAt(),
                job.getReceivedAt(), now, pausedUntil, latencyClass);
    }

    /**
     * Predictive admission (docs/design.md §4): for a claim of a LATEST_USEFUL_COMPLETION job, what
     * the model's live p95 says of an answer started now. The forecast is written on the job in
     * shadow and on (so what really happened can be counted against it); only {@code on} refuses.
     * No forecast while this server has too few answers of the job's latency class.
     */
    private GateDecision givenForecast(GateDecision decision, Job job, LatencyClass latencyClass, long now,
            WorkloadPolicy policy) {
        if (decision != GateDecision.CLAIM || policy.admission() == AdmissionMode.OFF
                || job.deadline().semantics() != io.lastcall.job.DeadlineSemantics.LATEST_USEFUL_COMPLETION) {
            return decision;
        }
        OptionalLong p95 = latencies.p95(latencyClass);
        if (p95.isEmpty()) {
            return decision;
        }
        long answerAt = now + p95.getAsLong();
        job.predictedAnswerAt(answerAt);
        return decision.givenForecast(job.deadline().isLateAt(answerAt), policy.admission() == AdmissionMode.ON);
    }

    /** The backend's rate row, locked; created full when missing (a concurrent creator fails this transaction on the key). */
    private BackendRate rateRow(Backend backend, long now) {
        BackendRate rate = em.find(BackendRate.class, backend.key(), LockModeType.PESSIMISTIC_WRITE);
        if (rate == null) {
            rate = fullRateRow(backend, now);
            em.persist(rate);
        }
        return rate;
    }

    /** A backend's rate row before its first claim: its whole (planned) minute is there. */
    private static BackendRate fullRateRow(Backend backend, long now) {
        return new BackendRate(backend.key(), now, backend.plannedRequestsPerMinute(), backend.plannedTokensPerMinute());
    }

    /** Creates the rate row of a rate-limited backend if it is missing (a concurrent creator makes this one fail: harmless). */
    public void ensureRateRow(Backend backend) {
        if (em.find(BackendRate.class, backend.key()) == null) {
            em.persist(fullRateRow(backend, clock.millis()));
            em.flush();
        }
    }

    /** Extends the backend's pause to {@code until}, creating its row on its first pause. */
    private void pauseBackend(String backend, long until, long now, int status) {
        BackendPause pause = em.find(BackendPause.class, backend, LockModeType.PESSIMISTIC_WRITE);
        if (pause == null) {
            // a concurrent first pause of the same backend fails this settlement on the key; its retry finds the row
            pause = new BackendPause(backend);
            em.persist(pause);
        }
        pause.pauseUntil(until, now, status);
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
        long since = policy.budgetPeriodStart(now);
        BigDecimal used = em.createQuery("select coalesce(sum(a.reserved), 0) + coalesce(sum(a.cost), 0)"
                        + " from Attempt a where a.workload = :w and a.claimedAt >= :since", BigDecimal.class)
                .setParameter("w", job.getWorkload()).setParameter("since", since).getSingleResult();
        // what retention purged from this period still counts
        used = used.add(em.createQuery("select coalesce(sum(p.amount), 0) from PurgedSpend p"
                        + " where p.workload = :w and p.hourStart >= :since", BigDecimal.class)
                .setParameter("w", job.getWorkload()).setParameter("since", since).getSingleResult());
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

    /** A connected call whose last check is due, and what that check needs. */
    public record Handoff(String attemptId, long clockUncertaintyMs, long handoffMaxMs, Backend backend,
            WorkloadPolicy policy, List<Long> retryTiersMs) {
    }

    /**
     * The last deadline check, made with the connection to the backend already open: commits
     * HANDED_OFF and authorizes the write for at most {@code handoffMaxMs}, never past the
     * deadline minus the margin. A claim whose deadline passed meanwhile ends
     * EXPIRED_NOT_STARTED/BEFORE_DISPATCH instead, its reservation released: nothing was written.
     * <p>
     * The rows go out first and the clock is read after them, so that only the commit lies between
     * the check and the write (docs/design.md §3.4). If the deadline passed during
     * that flush, nothing here commits and the caller checks again ({@link Authorization#again}):
     * the next check ends the job.
     */
    public Authorization handOff(Handoff handoff) {
        return handOffAll(List.of(handoff)).get(0);
    }

    /**
     * Several handoffs in one transaction ({@link LedgerGroups}), each exactly as {@link #handOff}
     * checks it alone, under its own job's row lock: the rows of all go out in one flush, then one
     * clock reading is every one's last check, and only the one commit lies between it and each
     * caller's write. If the deadline of any passed during the flush, none is recorded and every
     * caller checks again, alone.
     */
    public List<Authorization> handOffAll(List<Handoff> handoffs) {
        List<Attempt> attempts = attempts(handoffs.stream().map(Handoff::attemptId).toList());
        Map<String, Job> jobs = JobLocks.lock(em, attempts.stream().map(Attempt::getJobId).toList()).stream()
                .collect(Collectors.toMap(Job::getJobId, j -> j));
        TransactionReads reads = new TransactionReads(em);
        long now = clock.millis();
        Authorization[] checked = new Authorization[handoffs.size()];
        for (int i = 0; i < checked.length; i++) {
            checked[i] = writeHandedOff(handoffs.get(i), attempts.get(i), jobs.get(attempts.get(i).getJobId()), now,
                    reads);
        }
        em.flush();
        long checkNanos = System.nanoTime();
        long checkedAt = clock.millis();
        for (int i = 0; i < checked.length; i++) {
            if (checked[i] != null) {
                continue;
            }
            Handoff handoff = handoffs.get(i);
            long remaining = jobs.get(attempts.get(i).getJobId()).remainingForDispatch(checkedAt,
                    handoff.clockUncertaintyMs());
            if (remaining <= 0) {
                transaction.setRollbackOnly();
                return handoffs.stream().map(h -> Authorization.AGAIN).toList();
            }
            long window = Math.min(handoff.handoffMaxMs(), remaining);
            checked[i] = new Authorization(true, checkNanos, checkNanos + TimeUnit.MILLISECONDS.toNanos(window),
                    checkedAt + window, 0);
        }
        return List.of(checked);
    }

    /** These attempts, in this order, read in one query. */
    private List<Attempt> attempts(List<String> ids) {
        if (ids.size() == 1) {
            return List.of(em.find(Attempt.class, ids.get(0)));
        }
        Map<String, Attempt> byId = em.createQuery("select a from Attempt a where a.attemptId in :ids", Attempt.class)
                .setParameter("ids", ids).getResultStream().collect(Collectors.toMap(Attempt::getAttemptId, a -> a));
        return ids.stream().map(byId::get).toList();
    }

    /**
     * The checks before the handoff, on the locked job: a refusal (recorded), or null once
     * HANDED_OFF is written (not yet flushed) and the last check is still to come.
     */
    private Authorization writeHandedOff(Handoff handoff, Attempt attempt, Job job, long now, TransactionReads reads) {
        if (job.getState() == JobState.HANDED_OFF && job.getGeneration() == attempt.getGeneration()
                && attempt.getState() == Attempt.State.HANDED_OFF) {
            // this very handoff, committed by a commit that reported a failure (the database went away
            // during it): its caller wrote nothing, so it did not run
            attempt.notSent(now, "not written: its handoff's commit was reported failed");
            return Authorization.refusedRetrying(retryOrEnd(job, now, handoff.policy(), handoff.retryTiersMs(),
                    handoff.clockUncertaintyMs(), 0));
        }
        if (job.getState() != JobState.CLAIMED || job.getGeneration() != attempt.getGeneration()) {
            return Authorization.REFUSED;
        }
        if (job.remainingForDispatch(now, handoff.clockUncertaintyMs()) <= 0) {
            attempt.notSent(now, "deadline passed before the handoff");
            job.end(Outcome.EXPIRED_BEFORE_DISPATCH, now);
            return Authorization.REFUSED;
        }
        long pausedUntil = reads.pausedUntil(handoff.backend().key());
        if (pausedUntil > now) {
            // another server recorded a pause since this claim: nothing is written during it
            attempt.notSent(now, "the backend asked not to be called until " + java.time.Instant.ofEpochMilli(pausedUntil));
            attempt.rateLimited();
            return Authorization.refusedRetrying(retryOrEnd(job, now, handoff.policy(), handoff.retryTiersMs(),
                    handoff.clockUncertaintyMs(), pausedUntil));
        }
        job.handedOff(now);
        attempt.handedOff(now, Math.max(0, now - job.getCheckedAt()));
        return null;
    }

    /**
     * The request was never written — the backend was not reached, or the handoff authorization
     * lapsed — so it provably did not run: the attempt is released and the job goes back through a
     * retry tier if attempts and lifetime are left. Returns the tier (ms) to publish to after this
     * commits, 0 for none.
     */
    public long notSent(String attemptId, String why, WorkloadPolicy policy, List<Long> retryTiersMs,
            long clockUncertaintyMs) {
        Attempt attempt = em.find(Attempt.class, attemptId);
        Job job = lockedFor(attempt);
        long now = clock.millis();
        if (job.getGeneration() != attempt.getGeneration() || job.getState() != JobState.CLAIMED && job.getState() != JobState.HANDED_OFF
                || attempt.getState() != Attempt.State.CLAIMED && attempt.getState() != Attempt.State.HANDED_OFF) {
            return 0; // the claim was closed or revoked meanwhile (reconciler, another server): not ours to end
        }
        attempt.notSent(now, why);
        return retryOrEnd(job, now, policy, retryTiersMs, clockUncertaintyMs, 0);
    }

    /**
     * Records the call's outcome, usage and cost. A completion without usage costs its estimate
     * (flagged); an error status that is not "not processed" and an unknown outcome keep their
     * reservation. A "not processed" refusal goes back through a retry tier if attempts and
     * lifetime are left: the returned tier (ms) is what the caller publishes to after this
     * commits; 0 means nothing to publish. A refusal that asks for a pause (Retry-After, a
     * rate-limit reset; at most {@code maxPauseMs}) pauses the backend for every server, does not
     * count as an attempt, and its retry is due after the pause — or the job ends
     * EXPIRED_NOT_STARTED/BACKEND_PAUSED when its lifetime will not reach that far.
     */
    public long settle(Settlement settlement) {
        Job job = lock(settlement.jobId());
        // read after the lock: what another transaction changed before it counts
        return settle(settlement, job, em.find(Attempt.class, settlement.attemptId()));
    }

    private long settle(Settlement settlement, Job job, Attempt attempt) {
        ModelResult result = settlement.result();
        Long checkToLastByteMs = settlement.checkToLastByteMs();
        Pricing pricing = settlement.pricing();
        long now = clock.millis();
        if (attempt.getState() == Attempt.State.UNKNOWN && result.kind() == ModelResult.Kind.COMPLETED
                && attempt.getPromptTokens() == null && attempt.getHttpStatus() == null) {
            // closed as unknown before this answer came: the outcome stands, the bill is recorded
            attempt.answeredAfterClose(result.promptTokens(), result.completionTokens(), result.hasUsage()
                    ? pricing.cost(job.getModel(), result.promptTokens(), result.completionTokens()) : null,
                    result.httpStatus(), checkToLastByteMs);
            return 0;
        }
        if (attempt.getState() != Attempt.State.HANDED_OFF || job.getState() != JobState.HANDED_OFF
                || job.getGeneration() != attempt.getGeneration()) {
            return 0; // already settled (a retried settlement whose first try did commit), or reconciled
        }
        long answeredAt = result.answeredAt() == null ? now : result.answeredAt();
        if (settlement.backend().rateLimited() && result.remaining().known()) {
            // the provider's own count of what is left: it also holds calls made by others with this key
            rateRow(settlement.backend(), now).correct(now, result.remaining().requests(), result.remaining().tokens(),
                    settlement.backend().plannedRequestsPerMinute(),
                    settlement.backend().plannedTokensPerMinute());
        }
        switch (result.kind()) {
            case COMPLETED -> {
                boolean late = job.deadline().isLateAt(answeredAt);
                BigDecimal cost = result.hasUsage()
                        ? pricing.cost(job.getModel(), result.promptTokens(), result.completionTokens()) : null;
                attempt.completed(now, result.promptTokens(), result.completionTokens(), cost, late,
                        result.httpStatus(), late && !settlement.policy().keepLateResults() ? null : result.content(),
                        checkToLastByteMs);
                job.end(late ? Outcome.COMPLETED_LATE : Outcome.COMPLETED_ON_TIME, now);
            }
            case NOT_PROCESSED -> {
                attempt.refusedNotProcessed(now, result.httpStatus(), result.error(), checkToLastByteMs);
                long pausedUntil = 0;
                if (result.retryAfterMs() != null) {
                    pausedUntil = answeredAt + Math.min(result.retryAfterMs(), settlement.maxPauseMs());
                    pauseBackend(settlement.backend().key(), pausedUntil, now, result.httpStatus());
                    attempt.rateLimited();
                }
                return retryOrEnd(job, now, settlement.policy(), settlement.retryTiersMs(),
                        settlement.clockUncertaintyMs(), pausedUntil);
            }
            case HTTP_ERROR -> {
                attempt.failedAfterWrite(now, result.httpStatus(), result.error(), checkToLastByteMs);
                job.end(Outcome.FAILED_HTTP_ERROR, now);
            }
            case UNKNOWN -> {
                attempt.unknown(now, result.error(), checkToLastByteMs);
                job.end(Outcome.UNKNOWN_NO_RESULT, now);
            }
        }
        return 0;
    }

    /**
     * Settlements of several finished calls in one transaction ({@link LedgerGroups}), each exactly
     * as {@link #settle} records it alone, under its own job's row lock and generation check.
     * Returns each one's retry tier, in order. If any of them fails, none is recorded.
     */
    public List<Long> settleAll(List<Settlement> settlements) {
        Map<String, Job> jobs = JobLocks.lock(em, settlements.stream().map(Settlement::jobId).toList()).stream()
                .collect(Collectors.toMap(Job::getJobId, j -> j));
        // read after the locks, in one query: what another transaction changed before them counts
        List<Attempt> attempts = attempts(settlements.stream().map(Settlement::attemptId).toList());
        List<Long> tiers = new java.util.ArrayList<>(settlements.size());
        for (int i = 0; i < settlements.size(); i++) {
            tiers.add(settle(settlements.get(i), jobs.get(settlements.get(i).jobId()), attempts.get(i)));
        }
        return tiers;
    }

    /**
     * A failure proven not to have run: another attempt through a retry tier (one that ends after
     * the backend's pause, if one does), or the end.
     *
     * @param pausedUntil until when the backend asked not to be called (epoch ms), 0 for no pause
     */
    private long retryOrEnd(Job job, long now, WorkloadPolicy policy, List<Long> retryTiersMs,
            long clockUncertaintyMs, long pausedUntil) {
        if (GateDecision.pauseOutlasts(pausedUntil, now, job.deadline().lastDispatchAt(clockUncertaintyMs))) {
            job.end(Outcome.EXPIRED_BACKEND_PAUSED, now);
            return 0;
        }
        // a claim revoked after a crash was never tried, and a refusal that paused the backend is
        // the provider pacing its callers: neither counts
        int attempts = em.createQuery("select count(a) from Attempt a where a.jobId = :id and a.state <> :revoked"
                        + " and a.rateLimited = false", Long.class)
                .setParameter("id", job.getJobId()).setParameter("revoked", Attempt.State.REVOKED)
                .getSingleResult().intValue();
        RetryTiers.Choice choice = RetryTiers.choose(retryTiersMs, attempts, policy.maxAttempts(),
                job.remainingForDispatch(now, clockUncertaintyMs), Math.max(0, pausedUntil - now));
        switch (choice.kind()) {
            case RETRY -> {
                job.requeue(now);
                return choice.tierMs();
            }
            case NO_TIER_FITS -> job.end(Outcome.EXPIRED_BEFORE_DISPATCH, now);
            case ATTEMPTS_EXHAUSTED -> job.end(Outcome.FAILED_ATTEMPTS_EXHAUSTED, now);
        }
        return 0;
    }
}

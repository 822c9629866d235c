package io.lastcall.dispatch;

import io.lastcall.clock.ClockHealth;
import io.lastcall.ingress.JobPublisher;
import io.lastcall.job.GateDecision;
import io.lastcall.metrics.LastcallMetrics;
import io.lastcall.metrics.ModelLatencies;
import io.lastcall.policy.Backend;
import io.lastcall.policy.ModelSettings;
import io.lastcall.policy.Settings;
import io.lastcall.policy.WorkloadPolicy;
import io.lastcall.receipt.ReceivedMessage;
import io.lastcall.transport.PreparedRequest;
import jakarta.ejb.EJB;
import jakarta.ejb.EJBException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.time.Clock;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One received reference, start to end (docs/design.md §3): receipt → permit wait (earliest
 * deadline first) → final gate (claim; while the backend is paused or its per-minute limits are
 * full, a wait in {@link BackendWaits}, earliest deadline first) → connect to the backend → last check and HANDED_OFF
 * commit → the one write of the prepared request — on the consumer thread — then, on a call thread
 * of {@link CallExecutor} that holds the permit: answer → settle (→ a retry tier for a failure
 * proven not to have run).
 * No transaction spans the wait, the connect or the call; each step is its own in
 * {@link DispatchLedger}. Returning normally lets the message be acknowledged (after a handoff
 * the ledger owns the job: a crash during the call ends it OUTCOME_UNKNOWN, never resent); an
 * {@link InfrastructureFailure} holds it back without counting a redelivery; any other exception
 * gets it redelivered (counted). A CDI bean without state, not an EJB: it opens no transaction
 * (each step is its own in {@link DispatchLedger}), so an EJB invocation per message bought nothing.
 */
@ApplicationScoped
public class Worker {

    private static final Logger LOG = Logger.getLogger(Worker.class.getName());

    /** Workloads whose budget row, and backends whose rate row, are known to exist (rows are never deleted). */
    private static final Set<String> BUDGET_ROWS = ConcurrentHashMap.newKeySet();
    private static final Set<String> RATE_ROWS = ConcurrentHashMap.newKeySet();

    @EJB
    DispatchLedger ledger;

    @Inject
    DispatchPermits permits;

    @Inject
    BackendWaits backendWaits;

    @Inject
    CallExecutor calls;

    @Inject
    LedgerGroups groups;

    @Inject
    ClockHealth clockHealth;

    @EJB
    JobPublisher publisher;

    @EJB
    FailureTriage triage;

    @Inject
    ModelClient model;

    @Inject
    LastcallMetrics metrics;

    @Inject
    ModelLatencies latencies;

    @Inject
    Settings settings;

    @Inject
    Clock clock;

    public void process(ReceivedMessage message) {
        try {
            run(message);
        } catch (RuntimeException e) {
            throw triage.classify(e, "processing message " + message.messageId());
        }
    }

    private void run(ReceivedMessage message) {
        long uncertainty = clockHealth.marginMs();
        // a permit free at once (nobody waiting for one): receipt and gate in one transaction, unless
        // jobs here wait for the job's backend
        HeldPermit permit = new HeldPermit();
        permit.at = permits.tryAcquire() ? clock.millis() : null;
        boolean permitHandedOn = false;
        try {
            DispatchLedger.Receipt receipt;
            DispatchLedger.GateResult gate = null;
            if (permit.at != null) {
                DispatchLedger.Delivery delivery = new DispatchLedger.Delivery(message, settings.schemaVersions(),
                        settings.workerDeliveryLog(), uncertainty, settings::workloadOrDefault, settings::backend,
                        backendWaits::occupied);
                DispatchLedger.Admission admission = groups.admit(delivery)
                        .orElseGet(() -> ledger.receiveAndGate(delivery));
                receipt = admission.receipt();
                gate = admission.gate();
            } else {
                receipt = ledger.receive(message, settings.schemaVersions(), settings.workerDeliveryLog());
            }
            if (!receipt.proceed()) {
                return;
            }
            WorkloadPolicy policy = settings.workloadOrDefault(receipt.workload());
            Backend backend = settings.backend(receipt.workload());
            if (gate == null) {
                if (policy.budget() != null) {
                    ensureRow(BUDGET_ROWS, receipt.workload(), () -> ledger.ensureBudgetRow(receipt.workload()));
                }
                if (backend.rateLimited()) {
                    ensureRow(RATE_ROWS, backend.key(), () -> ledger.ensureRateRow(backend));
                }
                if (backendWaits.occupied(backend.key())) {
                    // jobs here already wait for this backend: queue among them by deadline, without
                    // a permit (receipt may have taken one)
                    releaseHeld(permit);
                    gate = gateInTurn(receipt, policy, backend, uncertainty, clock.millis(), permit);
                } else {
                    if (permit.at == null) {
                        permit.at = waitForPermit(receipt, uncertainty);
                    }
                    gate = ledger.gate(receipt.jobId(), permit.at, uncertainty, policy, backend);
                }
            }
            if (gate.decision() == GateDecision.WAIT_FOR_BACKEND) {
                // the backend asked every server not to call it yet, or its per-minute limits are full
                // until then: wait here (the delivery stays unacknowledged), without a permit another
                // job could use
                releaseHeld(permit);
                gate = gateInTurn(receipt, policy, backend, uncertainty, gate.pausedUntil(), permit);
            }
            if (gate.decision() != GateDecision.NOT_CLAIMABLE) {
                metrics.queueResidence(gate.workload(), gate.publishedAt(), gate.receivedAt());
                metrics.consumerResidence(gate.workload(), gate.receivedAt(), gate.checkedAt());
            }
            if (gate.decision() == GateDecision.NO_PERMIT) {
                throw new IllegalStateException("job " + receipt.jobId() + " has lifetime left but no dispatch permit"
                        + " (the clock went back?); redelivering");
            }
            if (gate.decision() == GateDecision.CLAIM) {
                permitHandedOn = dispatch(gate, policy, backend, uncertainty);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a dispatch permit", e);
        } finally {
            if (!permitHandedOn) {
                releaseHeld(permit);
            }
        }
    }

    /**
     * On this (consumer) thread: connect, prepare the request's bytes, the last check with the
     * HANDED_OFF commit, and the one write — the handoff is its last byte. Then the wait for the
     * answer and the settlement on a call thread, which releases the permit: from here on the
     * ledger, not the broker message, owns the job, so the delivery is acknowledged when this
     * returns. A request not completely written did not run: NOT_SENT, retried within the job's
     * lifetime. Returns whether the permit went with the call.
     */
    private boolean dispatch(DispatchLedger.GateResult gate, WorkloadPolicy policy, Backend backend, long uncertainty) {
        long remaining = gate.deadline().remainingForDispatch(clock.millis(), uncertainty);
        ModelClient.Connection connection;
        try {
            connection = model.connect(settings.modelBaseUrl(gate.workload()),
                    Math.min(settings.model().connectTimeoutMs(), Math.max(1, remaining)));
        } catch (IOException e) {
            retry(gate, ledger.notSent(gate.attemptId(), "backend not reached: " + e.getMessage(), policy,
                    settings.topology().retryTiersMs(), uncertainty));
            return false;
        }
        PreparedRequest request;
        DispatchLedger.Authorization auth;
        try {
            ModelClient.Call call = new ModelClient.Call(gate.jobId(), gate.attemptId(), gate.deadline(),
                    policy.callTimeoutMs(gate.deadline(), clock.millis()));
            try {
                request = connection.prepare(gate.payload(), call, settings.model().apiKey().orElse(null));
            } catch (IllegalArgumentException unsendable) {
                // e.g. an API key with a line break: never written, so never run; counted as an attempt
                connection.close();
                retry(gate, ledger.notSent(gate.attemptId(), "the request cannot be sent: "
                        + unsendable.getMessage(), policy, settings.topology().retryTiersMs(), uncertainty));
                return false;
            }
            DispatchLedger.Handoff handoff = new DispatchLedger.Handoff(gate.attemptId(), uncertainty,
                    settings.dispatch().handoffMaxMs(), backend, policy, settings.topology().retryTiersMs());
            auth = groups.handOff(handoff).orElseGet(() -> ledger.handOff(handoff));
            if (auth.again()) {
                // the deadline passed while the handoff wrote its rows; this check ends the job
                auth = ledger.handOff(handoff);
            }
        } catch (RuntimeException e) {
            connection.close();
            // nothing was written, whether or not the HANDED_OFF commit was made (a database that
            // goes away during a commit may have made it and still report a failure): the ledger
            // is told so, or the job would wait for the reconciler's OUTCOME_UNKNOWN
            LOG.log(Level.WARNING, "The handoff of attempt " + gate.attemptId() + " of job " + gate.jobId()
                    + " failed; its request is not written and it is recorded NOT_SENT: " + e, e);
            OptionalLong tier = recordRetrying("that the request of attempt " + gate.attemptId() + " of job "
                    + gate.jobId() + " was not written after its handoff failed",
                    "revokes its claim or marks its handoff OUTCOME_UNKNOWN",
                    () -> ledger.notSent(gate.attemptId(), "not written: the handoff failed ("
                            + e.getClass().getSimpleName() + ")", policy,
                            settings.topology().retryTiersMs(), uncertainty));
            if (tier.isEmpty()) {
                throw e;
            }
            retry(gate, tier.getAsLong());
            return false;
        }
        if (!auth.granted()) {
            connection.close();
            retry(gate, auth.retryTierMs());
            return false;
        }
        // nothing between the check and the write but this call
        ModelClient.Sent sent = connection.write(request, auth.writeByNanos(), auth.writeByMillis(), clock);
        if (!sent.written()) {
            connection.close();
            retry(gate, ledger.notSent(gate.attemptId(), sent.notWrittenBecause() + " ("
                    + TimeUnit.NANOSECONDS.toMillis(sent.atNanos() - auth.checkNanos()) + " ms after the check)",
                    policy, settings.topology().retryTiersMs(), uncertainty));
            return false;
        }
        long checkToLastByteNanos = sent.atNanos() - auth.checkNanos();
        metrics.checkToLastByte(gate.workload(), checkToLastByteNanos);
        long checkToLastByteMs = TimeUnit.NANOSECONDS.toMillis(checkToLastByteNanos);
        try {
            calls.run(() -> {
                try (connection) {
                    answer(gate, connection, checkToLastByteMs, policy, backend, uncertainty);
                } catch (RuntimeException e) {
                    LOG.log(Level.SEVERE, "The call of attempt " + gate.attemptId() + " of job " + gate.jobId()
                            + " failed outside the model client; the reconciler will mark it OUTCOME_UNKNOWN: " + e, e);
                } finally {
                    permits.release();
                }
            });
            return true;
        } catch (RuntimeException rejected) {
            // no call thread (the application is stopping): wait for the answer here instead
            try (connection) {
                answer(gate, connection, checkToLastByteMs, policy, backend, uncertainty);
            }
            return false;
        }
    }

    /** Waits for the answer of a written request and settles it. */
    private void answer(DispatchLedger.GateResult gate, ModelClient.Connection connection, long checkToLastByteMs,
            WorkloadPolicy policy, Backend backend, long uncertainty) {
        ModelSettings model = settings.model();
        ModelResult result = connection.answer(model.notProcessedStatuses(), model.maxResponseBytes(),
                model.keepAliveMs(), clock);
        if (result.kind() == ModelResult.Kind.COMPLETED) {
            latencies.record(gate.latencyClass(), clock.millis() - gate.checkedAt());
        }
        if (result.httpStatus() != null && result.httpStatus() == 429) {
            metrics.tooManyRequests(backend.key());
        }
        settle(gate, result, checkToLastByteMs, policy, backend, uncertainty);
    }

    /**
     * Records the result in the next settlement group ({@link LedgerGroups}), or alone if the group did
     * not take it, retrying while the database does not (a blip after a finished call must not lose
     * its usage); the reconciler is the last resort.
     */
    private void settle(DispatchLedger.GateResult gate, ModelResult result, long checkToLastByteMs, WorkloadPolicy policy,
            Backend backend, long uncertainty) {
        long maxPauseMs = settings.model().maxPauseMs();
        DispatchLedger.Settlement settlement = new DispatchLedger.Settlement(gate.jobId(), gate.attemptId(), result,
                checkToLastByteMs, settings.pricing(), policy, settings.topology().retryTiersMs(), uncertainty, backend,
                maxPauseMs);
        Optional<Long> grouped = groups.settle(settlement);
        if (grouped.isPresent()) {
            settled(gate, result, backend, maxPauseMs, grouped.get());
            return;
        }
        recordRetrying("the result of attempt " + gate.attemptId() + " of job " + gate.jobId() + " (" + result.kind()
                        + ", usage " + result.promptTokens() + "/" + result.completionTokens() + ")",
                "marks it OUTCOME_UNKNOWN", () -> ledger.settle(settlement))
                .ifPresent(tier -> settled(gate, result, backend, maxPauseMs, tier));
    }

    /**
     * Runs a ledger write that must not be lost to a database blip, with backoff (250 ms doubling to
     * 10 s) for up to {@code lastcall.dispatch.settle-retry-ms}; returns its result (a retry tier), or
     * empty once it gave up and logged what the reconciler does instead.
     */
    private OptionalLong recordRetrying(String what, String reconcilerThen, Supplier<Long> write) {
        long giveUpAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(settings.dispatch().settleRetryMs());
        long delay = 250;
        for (int tries = 1; ; tries++) {
            try {
                return OptionalLong.of(write.get());
            } catch (RuntimeException e) {
                if (System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delay) > giveUpAt) {
                    LOG.log(Level.SEVERE, "Could not record " + what + " after " + tries + " tries; the reconciler "
                            + reconcilerThen + ": " + e, e);
                    return OptionalLong.empty();
                }
                LOG.warning("Recording " + what + " failed (try " + tries + "), retrying in " + delay + " ms: " + e);
                sleep(delay);
                delay = Math.min(delay * 2, 10_000);
            }
        }
    }

    /** After the settlement's commit: its retry, and the word that the backend asked for a pause. */
    private void settled(DispatchLedger.GateResult gate, ModelResult result, Backend backend, long maxPauseMs,
            long retryTierMs) {
        retry(gate, retryTierMs);
        if (result.retryAfterMs() != null) {
            LOG.info("The model backend " + backend.key() + " answered " + result.httpStatus()
                    + " asking for a pause of " + result.retryAfterMs() + " ms (at most " + maxPauseMs
                    + "): no server calls it until then");
        }
    }

    /** After the commit that asked for it; if this publish fails, the reconciler publishes it. */
    private void retry(DispatchLedger.GateResult gate, long retryTierMs) {
        if (retryTierMs > 0) {
            publisher.publish(gate.jobId(), gate.workload(), retryTierMs);
        }
    }

    /** Creates a row the gate locks (a budget's, a backend's rate) once per key and server; rows are never deleted. */
    private static void ensureRow(Set<String> known, String key, Runnable create) {
        if (known.contains(key)) {
            return;
        }
        try {
            create.run();
        } catch (EJBException createdConcurrently) {
            // another delivery or server created it first
        }
        known.add(key);
    }

    /** When this delivery's dispatch permit was granted (epoch ms); null while it holds none. */
    private static final class HeldPermit {
        Long at;
    }

    private void releaseHeld(HeldPermit permit) {
        if (permit.at != null) {
            permits.release();
            permit.at = null;
        }
    }

    /**
     * Waits for the backend's turn ({@link BackendTurns}: once it opens, earliest last dispatchable
     * instant first), then for a permit (left in {@code permit}), then gates; again while the gate
     * finds the backend still closed.
     */
    private DispatchLedger.GateResult gateInTurn(DispatchLedger.Receipt receipt, WorkloadPolicy policy,
            Backend backend, long uncertainty, long opensAt, HeldPermit permit) throws InterruptedException {
        long lastDispatchAt = receipt.deadline().lastDispatchAt(uncertainty);
        long closedUntil = opensAt;
        while (backendWaits.take(backend.key(), lastDispatchAt, closedUntil)) {
            DispatchLedger.GateResult gate = null;
            try {
                permit.at = waitForPermit(receipt, uncertainty);
                gate = ledger.gate(receipt.jobId(), permit.at, uncertainty, policy, backend);
            } finally {
                // closed until then (it waits, or it was ended because it could not): the line learns
                // it, so the jobs it comes too late for are ended now rather than at their instant
                boolean closed = gate != null && gate.pausedUntil() > gate.checkedAt();
                backendWaits.pass(backend.key(), closed ? gate.pausedUntil() : null);
            }
            if (gate.decision() != GateDecision.WAIT_FOR_BACKEND) {
                return gate;
            }
            releaseHeld(permit);
            closedUntil = gate.pausedUntil();
        }
        // its last dispatchable instant came before its turn: the gate ends it, with the backend's reason
        return ledger.gateAfterBackendWait(receipt.jobId(), uncertainty, policy, backend);
    }

    /** Waits for a permit for as long as the job may still be dispatched; returns when it was granted, or null. */
    private Long waitForPermit(DispatchLedger.Receipt receipt, long uncertainty) throws InterruptedException {
        // the queue gives up by itself at the last dispatchable instant
        long lastDispatchAt = receipt.deadline().lastDispatchAt(uncertainty);
        return lastDispatchAt > clock.millis() && permits.acquire(lastDispatchAt) ? clock.millis() : null;
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while retrying a ledger write", e);
        }
    }
}

package io.lastcall.dispatch;

import io.lastcall.clock.ClockHealth;
import io.lastcall.job.Deadline;
import io.lastcall.job.GateDecision;
import io.lastcall.policy.Settings;
import io.lastcall.policy.WorkloadPolicy;
import io.lastcall.receipt.ReceivedMessage;
import io.lastcall.ingress.JobPublisher;
import jakarta.ejb.EJB;
import jakarta.ejb.EJBException;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.time.Clock;

/**
 * One received reference, start to end: receipt → permit wait → final gate → handoff → call →
 * settle (→ a retry tier for a failure proven not to have run). No transaction spans the wait or
 * the call; each step is its own in {@link JobLedger}. Returning normally lets the message be
 * acknowledged; an exception gets it redelivered.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class Worker {

    @EJB
    JobLedger ledger;

    @EJB
    DispatchPermits permits;

    @EJB
    ClockHealth clockHealth;

    @EJB
    JobPublisher publisher;

    @Inject
    ModelClient model;

    @Inject
    Settings settings;

    @Inject
    Clock clock;

    public void process(ReceivedMessage message) {
        JobLedger.Receipt receipt = ledger.receive(message, settings.schemaVersions(), clock.millis());
        if (!receipt.proceed()) {
            return;
        }
        long uncertainty = settings.clockUncertaintyMs() + clockHealth.extraMarginMs();
        WorkloadPolicy policy = settings.workloadOrDefault(receipt.workload());
        if (policy.budget() != null) {
            ensureBudgetRow(receipt.workload());
        }
        boolean held = false;
        try {
            held = waitForPermit(receipt, uncertainty);
            long checkNanos = System.nanoTime();
            JobLedger.GateResult gate = ledger.gate(receipt.jobId(), clock.millis(), held ? clock.millis() : null,
                    uncertainty, policy);
            if (gate.decision() == GateDecision.NO_PERMIT) {
                throw new IllegalStateException("job " + receipt.jobId() + " has lifetime left but no dispatch permit"
                        + " (the clock went back?); redelivering");
            }
            if (gate.decision() != GateDecision.CLAIM) {
                return;
            }
            if (!ledger.handOff(gate.attemptId(), clock.millis(), uncertainty)) {
                return;
            }
            ModelClient.Call call = new ModelClient.Call(gate.jobId(), gate.attemptId(), gate.expiresAt(),
                    gate.semantics(), policy.callTimeoutMs(gate.expiresAt(), clock.millis(), gate.semantics()));
            long[] sentNanos = {0};
            ModelResult result = model.complete(gate.payload(), call, () -> sentNanos[0] = System.nanoTime());
            long gapMs = Math.max(0, (sentNanos[0] - checkNanos) / 1_000_000);
            long retryTier = ledger.settle(gate.attemptId(), result, clock.millis(), gapMs, settings.pricing(), policy,
                    settings.retryTiersMs(), uncertainty);
            if (retryTier > 0) {
                // after the commit; if this publish fails, the reconciler publishes it (publish_requested_at)
                publisher.publish(gate.jobId(), gate.workload(), retryTier);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a dispatch permit", e);
        } finally {
            if (held) {
                permits.release();
            }
        }
    }

    private void ensureBudgetRow(String workload) {
        try {
            ledger.ensureBudgetRow(workload);
        } catch (EJBException createdConcurrently) {
            // another delivery created it first
        }
    }

    /** Waits for a permit for as long as the job may still be dispatched, no longer. */
    private boolean waitForPermit(JobLedger.Receipt receipt, long uncertainty) throws InterruptedException {
        while (true) {
            long remaining = Deadline.remainingForDispatch(receipt.expiresAt(), clock.millis(), uncertainty,
                    receipt.semantics(), receipt.minExecutionMs());
            if (remaining <= 0) {
                return false;
            }
            if (permits.acquire(remaining)) {
                return true;
            }
        }
    }
}

package io.lastcall.dispatch;

import io.lastcall.clock.ClockHealth;
import io.lastcall.ingress.JobPublisher;
import io.lastcall.job.Job;
import io.lastcall.job.JobState;
import io.lastcall.policy.Settings;
import io.lastcall.policy.WorkloadPolicy;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.EJB;
import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;

/**
 * The reconciler (SPEC §5), every 15 s and on demand ({@code POST /api/reconcile}). Each rule
 * reads candidates without locks, then re-checks and transitions each job in its own locked
 * transaction ({@link JobLedger}), so several servers and the workers may run at once without a
 * double transition:
 * <ol>
 *   <li>a reference owed a publish for longer than {@code lastcall.reconciler.republish-after-ms}
 *       (unconfirmed, or a retry whose publish failed) is published with its remaining TTL, or
 *       expires;</li>
 *   <li>a job not yet claimed and past its deadline plus {@code grace-ms} expires
 *       ({@code IN_BROKER} if it was queued, else {@code RECONCILED});</li>
 *   <li>a claim older than {@code claim-timeout-ms} that never reached the wire is revoked, its
 *       reservation released, and the job re-admitted within its remaining lifetime or expired;</li>
 *   <li>a handoff with no result after the call's own timeout (from the handoff) and the grace
 *       becomes {@code OUTCOME_UNKNOWN}, its exposure kept reserved.</li>
 * </ol>
 * Then it checks the invariant per workload and logs any violation loudly.
 */
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class Reconciler {

    private static final Logger LOG = Logger.getLogger(Reconciler.class.getName());
    private static final int BATCH = 500;

    /** What one pass did, and the figures after it. */
    public record Report(long at, int republished, int expired, int revoked, int unknown,
            Map<String, LedgerStats.Workload> workloads) {
        public boolean invariantHolds() {
            return workloads.values().stream().allMatch(LedgerStats.Workload::invariantHolds);
        }
    }

    @EJB
    JobLedger ledger;

    @EJB
    JobPublisher publisher;

    @EJB
    LedgerStats stats;

    @EJB
    ClockHealth clockHealth;

    @Inject
    Settings settings;

    @Inject
    Clock clock;

    private final AtomicBoolean running = new AtomicBoolean();
    private volatile Report last;

    @Schedule(second = "*/15", minute = "*", hour = "*", persistent = false, info = "lastcall reconciler")
    void scheduled() {
        if (settings.reconcilerEnabled()) {
            run();
        }
    }

    /** Runs one pass now, or returns the pass that is running on this server. */
    public Report run() {
        if (!running.compareAndSet(false, true)) {
            return last;
        }
        try {
            Report report = pass();
            if (!report.invariantHolds()) {
                report.workloads().forEach((name, w) -> {
                    if (!w.invariantHolds()) {
                        LOG.severe("INVARIANT VIOLATED for workload " + name + ": accepted " + w.accepted
                                + ", terminal " + w.terminal + ", in flight " + w.inFlight + ", overdue " + w.overdue
                                + ", double claims " + w.doubleClaims);
                    }
                });
            }
            if (report.republished() + report.expired() + report.revoked() + report.unknown() > 0) {
                LOG.info("Reconciler: republished " + report.republished() + ", expired " + report.expired()
                        + ", revoked " + report.revoked() + ", outcome unknown " + report.unknown());
            }
            last = report;
            return report;
        } finally {
            running.set(false);
        }
    }

    private Report pass() {
        long now = clock.millis();
        long grace = settings.reconcilerGraceMs();
        long uncertainty = settings.clockUncertaintyMs() + clockHealth.extraMarginMs();
        int republished = 0;
        int expired = 0;
        int revoked = 0;
        int unknown = 0;

        for (String jobId : ledger.owedPublish(now - settings.reconcilerRepublishAfterMs(), BATCH)) {
            if (ledger.takePublishTurn(jobId, now - settings.reconcilerRepublishAfterMs(), clock.millis())) {
                String workload = ledger.find(jobId).map(Job::getWorkload).orElseThrow();
                republished += publisher.publish(jobId, workload, 0) ? 1 : 0;
            }
        }
        for (Job job : ledger.inStates(JobState.preClaimStates(), BATCH)) {
            if (job.getExpiresAt() + grace < now && ledger.expireOverdue(job.getJobId(), clock.millis(), grace)) {
                expired++;
            }
        }
        for (Job job : ledger.inStates(Set.of(JobState.CLAIMED), BATCH)) {
            if (ledger.revokeStaleClaim(job.getJobId(), clock.millis(), settings.reconcilerClaimTimeoutMs(),
                    uncertainty)) {
                revoked++;
                publisher.publish(job.getJobId(), job.getWorkload(), 0);
            }
        }
        for (Job job : ledger.inStates(Set.of(JobState.HANDED_OFF), BATCH)) {
            WorkloadPolicy policy = settings.workloadOrDefault(job.getWorkload());
            if (ledger.markUnknown(job.getJobId(), clock.millis(), policy, grace)) {
                unknown++;
            }
        }
        return new Report(now, republished, expired, revoked, unknown, stats.byWorkload(clock.millis() - grace));
    }
}

package io.lastcall.reconcile;

import io.lastcall.ledger.LedgerStats;
import io.lastcall.clock.ClockHealth;
import io.lastcall.instance.Incarnation;
import io.lastcall.ledger.LedgerQueries;
import io.lastcall.ingress.JobPublisher;
import io.lastcall.instance.LeaseLedger;
import io.lastcall.job.Attempt;
import io.lastcall.job.Job;
import io.lastcall.job.JobState;
import io.lastcall.policy.Settings;
import jakarta.annotation.PostConstruct;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.DependsOn;
import jakarta.ejb.EJB;
import jakarta.ejb.TimerService;
import jakarta.ejb.TimerConfig;
import jakarta.ejb.Timeout;
import jakarta.annotation.Resource;
import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The reconciler (docs/design.md §5), every 15 s, on demand ({@code POST /api/reconcile}) and once at
 * startup. Each rule reads candidates without locks, then re-checks and transitions each job in
 * its own locked transaction, so several servers and the workers may run at once without a
 * double transition. A rule that fails — for one job or as a whole — is logged and reported and
 * never stops the other rules. Then it checks the invariant per workload and logs a violation loudly.
 */
@Singleton
@Startup
@DependsOn("LedgerSchema")
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class Reconciler {

    private static final Logger LOG = Logger.getLogger(Reconciler.class.getName());
    private static final int BATCH = 500;
    /** Overdue jobs ended per pass at most: 20 transactions of 500. */
    private static final int EXPIRE_BATCHES = 20;

    /** What one pass did, the rules that failed, and the figures after it. */
    public record Report(long at, int republished, int expired, int revoked, int unknown, int previousBoot,
            int lapsedLeases, int rolledUp, Purged purged, List<String> failures, Map<String, LedgerStats.Workload> workloads) {
        public boolean invariantHolds() {
            return workloads.values().stream().allMatch(LedgerStats.Workload::invariantHolds);
        }
    }

    @EJB
    LedgerQueries queries;

    @EJB
    JobPublisher publisher;

    @EJB
    LedgerStats stats;

    @Inject
    ClockHealth clockHealth;

    @EJB
    Incarnation incarnation;

    @EJB
    ClosePreviousBoots closePreviousBoots;

    @EJB
    CloseLapsedLeases closeLapsedLeases;

    @EJB
    LeaseLedger leases;

    @EJB
    RepublishOwed republishOwed;

    @EJB
    ExpireOverdue expireOverdue;

    @EJB
    RevokeLostClaims revokeLostClaims;

    @EJB
    MarkSilentHandoffs markSilentHandoffs;

    @EJB
    RollUpEndedJobs rollUpEndedJobs;

    @EJB
    PurgeEndedJobs purgeEndedJobs;

    @EJB
    PurgeOldRecords purgeOldRecords;

    @Inject
    Settings settings;

    @Inject
    Clock clock;

    @Resource
    TimerService timers;

    /** One pass at a time on this server. */
    private final ReentrantLock passing = new ReentrantLock();
    /** A restarted server closes what its previous incarnation left at once, not a reconciler period later. */
    @PostConstruct
    void atStartup() {
        try {
            List<String> failures = new ArrayList<>();
            int closed = closePreviousBoots(failures);
            if (closed > 0 || !failures.isEmpty()) {
                LOG.info("Startup: closed " + closed + " attempt(s) left by earlier boots of instance "
                        + incarnation.instanceId() + (failures.isEmpty() ? "" : "; failures: " + failures));
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Startup: could not close the previous boot's attempts (the next reconciler"
                    + " pass retries): " + e, e);
        }
    }

    @Schedule(second = "*/15", minute = "*", hour = "*", persistent = false, info = "lastcall reconciler")
    void scheduled() {
        // a pass already running (an operator's) is this period's pass
        if (settings.reconciler().enabled() && passing.tryLock()) {
            try {
                runPass();
            } finally {
                passing.unlock();
            }
        }
    }

    /**
     * Runs one pass now and returns what it did. When a pass is running on this server (the
     * schedule's, or another operator's), waits for it to end first, at most a minute; empty if it
     * is still running then.
     */
    public Optional<Report> run() {
        try {
            if (!passing.tryLock(60, TimeUnit.SECONDS)) {
                return Optional.empty();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
        try {
            return Optional.of(runPass());
        } finally {
            passing.unlock();
        }
    }

    private Report runPass() {
        Report report = pass();
        report.workloads().forEach((name, w) -> {
            if (!w.invariantHolds()) {
                LOG.severe("INVARIANT VIOLATED for workload " + name + ": accepted " + w.accepted
                        + ", terminal " + w.terminal + ", in flight " + w.inFlight + ", overdue " + w.overdue
                        + ", double claims " + w.doubleClaims);
            }
        });
        if (report.republished() + report.expired() + report.revoked() + report.unknown()
                + report.previousBoot() + report.lapsedLeases() + report.purged().total() > 0 || !report.failures().isEmpty()) {
            LOG.info("Reconciler: republished " + report.republished() + ", expired " + report.expired()
                    + ", revoked " + report.revoked() + ", outcome unknown " + report.unknown()
                    + ", previous boots " + report.previousBoot() + ", lapsed leases "
                    + report.lapsedLeases() + ", purged " + report.purged()
                    + ", failures " + report.failures());
        }
        return report;
    }

    private Report pass() {
        long now = clock.millis();
        long grace = settings.reconciler().graceMs();
        long uncertainty = uncertainty();
        List<String> failures = new ArrayList<>();
        int previousBoot = closePreviousBoots(failures);
        int lapsedLeases = closeLapsedLeases(failures);

        int republished = 0;
        long owedBefore = now - settings.reconciler().republishAfterMs();
        for (String jobId : candidates("republish", failures, () -> queries.owedPublish(owedBefore, BATCH))) {
            Boolean done = each("republish " + jobId, failures, () -> republishOwed.takeTurn(jobId, owedBefore,
                    clock.millis()).map(job -> publisher.publish(job.getJobId(), job.getWorkload(), 0)).orElse(false));
            republished += Boolean.TRUE.equals(done) ? 1 : 0;
        }
        int expired = batches(EXPIRE_BATCHES, BATCH, "expire overdue", failures,
                () -> expireOverdue.batch(clock.millis(), grace, BATCH));
        int revoked = 0;
        for (Job job : candidates("revoke", failures, () -> queries.inStates(Set.of(JobState.CLAIMED), BATCH))) {
            Boolean readmitted = each("revoke " + job.getJobId(), failures, () -> revokeLostClaims.apply(
                    job.getJobId(), settings.reconciler().claimTimeoutMs(), uncertainty));
            if (Boolean.TRUE.equals(readmitted)) {
                revoked++;
                each("publish " + job.getJobId(), failures, () -> publisher.publish(job.getJobId(), job.getWorkload(), 0));
            }
        }
        int unknown = 0;
        for (Job job : candidates("silent handoffs", failures,
                () -> queries.inStates(Set.of(JobState.HANDED_OFF), BATCH))) {
            unknown += Boolean.TRUE.equals(each("silent handoff " + job.getJobId(), failures,
                    () -> markSilentHandoffs.apply(job.getJobId(), settings.workloadOrDefault(job.getWorkload()), grace, settings.dispatch().settleRetryMs(),
                            incarnation.bootId(), settings.instance().leaseMs()))) ? 1 : 0;
        }
        int rollUpSize = settings.reconciler().rollUpBatchSize();
        int rolledUp = batches(settings.reconciler().rollUpBatchesPerPass(), rollUpSize, "roll up ended jobs", failures,
                () -> rollUpEndedJobs.batch(settings.reconciler().rollUpLagMs(), rollUpSize));
        Purged purged = purge(now, failures);
        Map<String, LedgerStats.Workload> figures = each("stats", failures, () -> stats.byWorkload(clock.millis()));
        return new Report(now, republished, expired, revoked, unknown, previousBoot, lapsedLeases, rolledUp, purged, failures,
                figures == null ? Map.of() : figures);
    }

    /** What retention removed in one pass. */
    public record Purged(int jobs, int deliveries, int quarantined) {
        int total() {
            return jobs + deliveries + quarantined;
        }
    }

    /** Retention: bounded batches of each kind, oldest first; only rolled-up jobs, whose totals stay in lc_ended_totals. */
    private Purged purge(long now, List<String> failures) {
        long maxAge = settings.retention().maxAgeMs();
        if (maxAge <= 0) {
            return new Purged(0, 0, 0);
        }
        long cutoff = now - maxAge;
        int size = settings.retention().batchSize();
        int batches = settings.retention().batchesPerPass();
        return new Purged(batches(batches, size, "purge ended jobs", failures, () -> purgeEndedJobs.batch(cutoff, size)),
                batches(batches, size, "purge deliveries", failures, () -> purgeOldRecords.deliveries(cutoff, size)),
                batches(batches, size, "purge quarantine", failures, () -> purgeOldRecords.quarantined(cutoff, size)));
    }

    private static int batches(int max, int size, String what, List<String> failures, Supplier<Integer> batch) {
        int total = 0;
        for (int i = 0; i < max; i++) {
            Integer done = each(what, failures, batch);
            total += done == null ? 0 : done;
            if (done == null || done < size) {
                break;
            }
        }
        return total;
    }

    private int closePreviousBoots(List<String> failures) {
        int closed = 0;
        boolean undecided = false;
        for (Attempt a : candidates("previous boots", failures, () -> queries.leftByPreviousBoots(
                incarnation.instanceId(), incarnation.bootId(), BATCH))) {
            ClosePreviousBoots.Closed result = each("previous boot " + a.getAttemptId(), failures,
                    () -> closePreviousBoots.apply(a.getAttemptId(), incarnation.bootId(), clock.millis(),
                            uncertainty(), settings.instance().leaseMs()));
            if (result == ClosePreviousBoots.Closed.READMITTED) {
                each("publish " + a.getJobId(), failures, () -> publisher.publish(a.getJobId(), a.getWorkload(), 0));
            }
            undecided |= result == ClosePreviousBoots.Closed.UNDECIDED;
            closed += result == null || result == ClosePreviousBoots.Closed.NOTHING
                    || result == ClosePreviousBoots.Closed.UNDECIDED ? 0 : 1;
        }
        if (undecided) {
            // an earlier boot that may still renew: look again once its next renewal is overdue
            long lookAgainMs = settings.instance().leaseMs() / 4 + 1_500;
            timers.createSingleActionTimer(lookAgainMs, new TimerConfig("lastcall previous boots", false));
        }
        return closed;
    }

    /** The look again that {@link #closePreviousBoots} asked for. */
    @Timeout
    void previousBootsAgain() {
        List<String> failures = new ArrayList<>();
        int closed = closePreviousBoots(failures);
        if (closed > 0 || !failures.isEmpty()) {
            LOG.info("Closed " + closed + " attempt(s) left by earlier boots of instance " + incarnation.instanceId()
                    + (failures.isEmpty() ? "" : "; failures: " + failures));
        }
    }

    /** What the boots whose lease lapsed left open (rule 0b); their readmitted jobs are published again. */
    private int closeLapsedLeases(List<String> failures) {
        long leaseMs = settings.instance().leaseMs();
        int closed = 0;
        for (Attempt a : candidates("lapsed leases", failures, () -> queries.leftByLapsedLeases(
                incarnation.bootId(), clock.millis() - leaseMs, BATCH))) {
            ClosePreviousBoots.Closed result = each("lapsed lease " + a.getAttemptId(), failures,
                    () -> closeLapsedLeases.apply(a.getAttemptId(), incarnation.bootId(), clock.millis(), leaseMs,
                            uncertainty()));
            if (result == ClosePreviousBoots.Closed.READMITTED) {
                each("publish " + a.getJobId(), failures, () -> publisher.publish(a.getJobId(), a.getWorkload(), 0));
            }
            closed += result == null || result == ClosePreviousBoots.Closed.NOTHING ? 0 : 1;
        }
        // a day after a lease lapsed and nothing of it is open, its row is only history
        each("purge lapsed leases", failures, () -> leases.purgeLapsed(clock.millis() - 86_400_000L));
        return closed;
    }

    private long uncertainty() {
        return clockHealth.marginMs();
    }

    private static <T> List<T> candidates(String rule, List<String> failures, Supplier<List<T>> query) {
        List<T> found = each("rule " + rule, failures, query);
        return found == null ? List.of() : found;
    }

    /** One step of a rule; a failure is logged and reported, and the pass goes on. */
    private static <T> T each(String what, List<String> failures, Supplier<T> step) {
        try {
            return step.get();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Reconciler: " + what + " failed: " + e, e);
            failures.add(what + ": " + e.getClass().getSimpleName());
            return null;
        }
    }
}

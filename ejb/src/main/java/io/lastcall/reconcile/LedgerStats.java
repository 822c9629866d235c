package io.lastcall.reconcile;

import io.lastcall.job.Job;
import io.lastcall.job.JobState;
import io.lastcall.job.PurgedTotals;
import io.lastcall.job.WorkloadCounter;
import io.lastcall.policy.Settings;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Counts and money per workload, computed from the ledger rows: outcomes by reason, in flight,
 * actual spend, reserved exposure, and the estimated avoided exposure of jobs that expired before
 * dispatch — kept apart from spend and grouped by estimate revision. Also the invariant, which
 * can fail: {@code accepted} is ingress's own counter (written with each job), compared with the
 * job rows (terminal + in flight); no job claimed twice in one generation; nothing in flight past
 * its deadline and grace — except a handed-off call still within its own timeout (a
 * LATEST_START call may legitimately run past the deadline).
 */
@Stateless
public class LedgerStats {

    /** One workload's figures. */
    public static final class Workload {
        /** ingress's counter; {@code jobs} is what the job rows add up to */
        public long accepted;
        public long jobs;
        public long terminal;
        public long inFlight;
        public long overdue;
        public final Map<String, Long> outcomes = new TreeMap<>();
        public final Map<String, Long> reasons = new TreeMap<>();
        public final Map<String, Long> inFlightByState = new TreeMap<>();
        public BigDecimal actualSpend = BigDecimal.ZERO;
        public BigDecimal reserved = BigDecimal.ZERO;
        public long attempts;
        public final Map<String, BigDecimal> avoidedExposureByEstimateRevision = new TreeMap<>();
        public BigDecimal avoidedExposure = BigDecimal.ZERO;
        public long doubleClaims;

        /** Jobs that retention removed still count: they ended, and their money was spent or avoided. */
        void addPurged(PurgedTotals purged) {
            String state = purged.getState().name();
            jobs += purged.getJobs();
            terminal += purged.getJobs();
            outcomes.merge(state, purged.getJobs(), Long::sum);
            reasons.merge(state + (purged.getReason() == null ? "" : "/" + purged.getReason()), purged.getJobs(),
                    Long::sum);
            attempts += purged.getAttempts();
            actualSpend = actualSpend.add(purged.getCost());
            reserved = reserved.add(purged.getReserved());
            if (purged.getState() == JobState.EXPIRED_NOT_STARTED) {
                avoidedExposureByEstimateRevision.merge(purged.getEstimateRevision(), purged.getEstimate(),
                        BigDecimal::add);
                avoidedExposure = avoidedExposure.add(purged.getEstimate());
            }
        }

        public boolean invariantHolds() {
            return accepted == terminal + inFlight && jobs == accepted && doubleClaims == 0 && overdue == 0;
        }
    }

    @PersistenceContext(unitName = "ledger")
    private EntityManager em;

    @Inject
    Settings settings;

    /** The figures at {@code now}; the reconciler's grace decides what counts as overdue. */
    public Map<String, Workload> byWorkload(long now) {
        long grace = settings.reconcilerGraceMs();
        long overdueBefore = now - grace;
        Map<String, Workload> result = new TreeMap<>();
        for (WorkloadCounter counter : em.createQuery("select c from WorkloadCounter c", WorkloadCounter.class)
                .getResultList()) {
            result.computeIfAbsent(counter.getWorkload(), k -> new Workload()).accepted = counter.getAccepted();
        }
        for (Object[] row : rows("select j.workload, j.state, j.reason, count(j) from Job j"
                + " group by j.workload, j.state, j.reason")) {
            Workload w = result.computeIfAbsent((String) row[0], k -> new Workload());
            JobState state = (JobState) row[1];
            long count = ((Number) row[3]).longValue();
            w.jobs += count;
            if (state.isTerminal()) {
                w.terminal += count;
                w.outcomes.merge(state.name(), count, Long::sum);
                w.reasons.merge(state.name() + (row[2] == null ? "" : "/" + row[2]), count, Long::sum);
            } else {
                w.inFlight += count;
                w.inFlightByState.merge(state.name(), count, Long::sum);
            }
        }
        for (Object[] row : rows("select j.workload, count(j) from Job j where j.state not in :terminal"
                + " and j.state <> io.lastcall.job.JobState.HANDED_OFF"
                + " and j.expiresAt < :before group by j.workload", overdueBefore)) {
            result.computeIfAbsent((String) row[0], k -> new Workload()).overdue = ((Number) row[1]).longValue();
        }
        // a handoff is overdue only once its call's own timeout and the grace have passed
        for (Job job : em.createQuery("select j from Job j where j.state = io.lastcall.job.JobState.HANDED_OFF"
                + " and j.expiresAt < :before", Job.class).setParameter("before", overdueBefore).setMaxResults(10_000)
                .getResultList()) {
            if (MarkSilentHandoffs.resultDueBy(job, settings.workloadOrDefault(job.getWorkload())) + grace < now) {
                result.computeIfAbsent(job.getWorkload(), k -> new Workload()).overdue++;
            }
        }
        for (Object[] row : rows("select a.workload, coalesce(sum(a.cost), 0), coalesce(sum(a.reserved), 0), count(a)"
                + " from Attempt a group by a.workload")) {
            Workload w = result.computeIfAbsent((String) row[0], k -> new Workload());
            w.actualSpend = (BigDecimal) row[1];
            w.reserved = (BigDecimal) row[2];
            w.attempts = ((Number) row[3]).longValue();
        }
        for (Object[] row : rows("select j.workload, j.estimateRevision, sum(j.estimate) from Job j"
                + " where j.state = io.lastcall.job.JobState.EXPIRED_NOT_STARTED"
                + " group by j.workload, j.estimateRevision")) {
            Workload w = result.computeIfAbsent((String) row[0], k -> new Workload());
            w.avoidedExposureByEstimateRevision.put((String) row[1], (BigDecimal) row[2]);
            w.avoidedExposure = w.avoidedExposure.add((BigDecimal) row[2]);
        }
        for (Object[] row : rows("select a.workload, a.jobId, a.generation from Attempt a"
                + " group by a.workload, a.jobId, a.generation having count(a) > 1")) {
            result.computeIfAbsent((String) row[0], k -> new Workload()).doubleClaims++;
        }
        for (PurgedTotals purged : em.createQuery("select p from PurgedTotals p", PurgedTotals.class).getResultList()) {
            result.computeIfAbsent(purged.getWorkload(), k -> new Workload()).addPurged(purged);
        }
        return result;
    }

    @SuppressWarnings("unchecked")
    private List<Object[]> rows(String jpql) {
        return em.createQuery(jpql).getResultList();
    }

    @SuppressWarnings("unchecked")
    private List<Object[]> rows(String jpql, long before) {
        return em.createQuery(jpql).setParameter("before", before)
                .setParameter("terminal", JobState.terminalStates())
                .getResultList();
    }
}

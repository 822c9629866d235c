package io.lastcall.dispatch;

import io.lastcall.job.JobState;
import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Counts and money per workload, computed from the ledger rows themselves (never from counters
 * that could drift): outcomes by reason, in flight, actual spend, reserved exposure, and the
 * estimated avoided exposure of jobs that expired before dispatch — kept apart from spend and
 * grouped by estimate revision. Also the invariant: accepted = terminal + in flight, no job
 * claimed twice in one generation, nothing left in flight past its deadline and grace.
 */
@Stateless
public class LedgerStats {

    /** One workload's figures. */
    public static final class Workload {
        public long accepted;
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

        public boolean invariantHolds() {
            return accepted == terminal + inFlight && doubleClaims == 0 && overdue == 0;
        }
    }

    @PersistenceContext(unitName = "ledger")
    private EntityManager em;

    /** @param overdueBefore in-flight jobs whose deadline is before this count as overdue */
    public Map<String, Workload> byWorkload(long overdueBefore) {
        Map<String, Workload> result = new TreeMap<>();
        for (Object[] row : rows("select j.workload, j.state, j.reason, count(j) from Job j"
                + " group by j.workload, j.state, j.reason")) {
            Workload w = result.computeIfAbsent((String) row[0], k -> new Workload());
            JobState state = (JobState) row[1];
            long count = ((Number) row[3]).longValue();
            w.accepted += count;
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
                + " and j.expiresAt < :before group by j.workload", overdueBefore)) {
            result.computeIfAbsent((String) row[0], k -> new Workload()).overdue = ((Number) row[1]).longValue();
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

package io.lastcall.ledger;

import io.lastcall.job.EndedTotals;
import io.lastcall.job.Job;
import io.lastcall.job.JobState;
import io.lastcall.job.Outcome;
import io.lastcall.job.RollUpMark;
import io.lastcall.job.WorkloadCounter;
import io.lastcall.policy.Settings;
import io.lastcall.schema.LedgerSchema;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Counts and money per workload: the ended totals (jobs rolled up) plus the live rows, so no
 * query reads the whole ledger. Outcomes by reason, in flight,
 * actual spend, reserved exposure, and the estimated avoided exposure of jobs that expired before
 * dispatch — kept apart from spend and grouped by estimate revision. Also the invariant, which
 * can fail: {@code accepted} is ingress's own counter (written with each job), compared with the
 * job rows (terminal + in flight); no job claimed twice in one generation; nothing in flight past
 * its deadline and grace — except a handed-off call still within its own timeout (a
 * LATEST_START call may legitimately run past the deadline).
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
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
        /** ended jobs by outcome (state and reason), in the outcomes' declared order */
        public final Map<Outcome, Long> byOutcome = new java.util.EnumMap<>(Outcome.class);
        public final Map<String, Long> inFlightByState = new TreeMap<>();
        public BigDecimal actualSpend = BigDecimal.ZERO;
        public BigDecimal reserved = BigDecimal.ZERO;
        public long attempts;
        public final Map<String, BigDecimal> avoidedExposureByEstimateRevision = new TreeMap<>();
        public BigDecimal avoidedExposure = BigDecimal.ZERO;
        public long doubleClaims;
        /** Predictive admission: what the model's live latency forecast said, and what came of it. */
        public final Admission admission = new Admission();

        /** Ended jobs counted in the totals (rolled up, and perhaps purged since): they ended, and their money was spent or avoided. */
        void addEnded(EndedTotals ended) {
            String state = ended.getState().name();
            jobs += ended.getJobs();
            terminal += ended.getJobs();
            outcomes.merge(state, ended.getJobs(), Long::sum);
            Outcome.of(ended.getState(), ended.getReason()).ifPresent(o -> byOutcome.merge(o, ended.getJobs(), Long::sum));
            attempts += ended.getAttempts();
            actualSpend = actualSpend.add(ended.getCost());
            reserved = reserved.add(ended.getReserved());
            doubleClaims += ended.getDoubleClaims();
            Outcome.of(ended.getState(), ended.getReason()).ifPresent(o -> admission.add(o, ended.getJobs(),
                    ended.getEstimate(), ended.getCost(), ended.getPredictedLateJobs(), ended.getPredictedLateCost()));
            if (ended.getState() == JobState.EXPIRED_NOT_STARTED) {
                avoidedExposureByEstimateRevision.merge(ended.getEstimateRevision(), ended.getEstimate(),
                        BigDecimal::add);
                avoidedExposure = avoidedExposure.add(ended.getEstimate());
            }
        }

        public boolean invariantHolds() {
            return accepted == terminal + inFlight && jobs == accepted && doubleClaims == 0 && overdue == 0;
        }
    }

    /**
     * One workload's predictive admission figures: jobs refused as predicted late and the money not
     * spent on them (their estimates); money spent on answers that came late; and the jobs the
     * forecast named late (in shadow: what {@code on} would have refused), how many of those were
     * answered on time anyway (false refusals) or late, and what those late answers cost.
     */
    public static final class Admission {
        public long refused;
        public BigDecimal refusedEstimate = BigDecimal.ZERO;
        public BigDecimal lateSpend = BigDecimal.ZERO;
        public long predictedLate;
        public long predictedLateOnTime;
        public long predictedLateAnsweredLate;
        public BigDecimal predictedLateSpend = BigDecimal.ZERO;

        /** Adds ended jobs of one outcome: their estimates and cost, and how many of them (and their cost) were predicted late. */
        void add(Outcome outcome, long jobs, BigDecimal estimate, BigDecimal cost, long predicted, BigDecimal predictedCost) {
            predictedLate += predicted;
            switch (outcome) {
                case EXPIRED_PREDICTED_LATE -> {
                    refused += jobs;
                    refusedEstimate = refusedEstimate.add(estimate);
                }
                case COMPLETED_LATE -> {
                    lateSpend = lateSpend.add(cost);
                    predictedLateAnsweredLate += predicted;
                    predictedLateSpend = predictedLateSpend.add(predictedCost);
                }
                case COMPLETED_ON_TIME -> predictedLateOnTime += predicted;
                default -> {
                }
            }
        }
    }

    /** How far back the per-tenant figures reach: the jobs that ended in the last hour. */
    public static final long TENANT_WINDOW_MS = 3_600_000;
    /** Tenants shown one by one, the most jobs first; the rest are summed as {@link #OTHER_TENANTS}. */
    public static final int TENANTS_SHOWN = 50;
    public static final String OTHER_TENANTS = "(others)";

    /**
     * One tenant's jobs that ended in the window: how many, how many of them had a call (their
     * share of the model), how many were answered on time.
     */
    public record Tenant(String tenant, long ended, long dispatched, long onTime) {

        Tenant plus(Tenant o) {
            return new Tenant(tenant, ended + o.ended, dispatched + o.dispatched, onTime + o.onTime);
        }
    }

    /** A job not counted in the ended totals yet. */
    private static final String LIVE_JOB = "(j.finishedAt > :rolledUpTo or j.state in :open)";
    /** An attempt of such a job. */
    private static final String LIVE_ATTEMPT = "a.jobId in (select j.jobId from Job j where " + LIVE_JOB + ")";

    @PersistenceContext(unitName = "ledger")
    private EntityManager em;

    @EJB
    LedgerSchema schema;

    @Inject
    Settings settings;

    /** The figures at {@code now}; the reconciler's grace decides what counts as overdue. */
    public Map<String, Workload> byWorkload(long now) {
        // read committed would let a job accepted or rolled up between two of the queries below
        // count twice or not at all: a false invariant violation, a counter that goes back
        boolean snapshot = "postgresql".equals(schema.vendor());
        if (snapshot) {
            em.createNativeQuery("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ").executeUpdate();
        }
        // elsewhere (H2: its isolation is per connection, not per transaction) the mark and the
        // counters are locked instead, so no roll-up and no acceptance commits while this reads
        LockModeType lock = snapshot ? LockModeType.NONE : LockModeType.PESSIMISTIC_WRITE;
        long grace = settings.reconciler().graceMs();
        long overdueBefore = now - grace;
        Map<String, Workload> result = new TreeMap<>();
        RollUpMark mark = em.find(RollUpMark.class, RollUpMark.ID, lock);
        long rolledUpTo = mark == null ? 0 : mark.getRolledUpTo();
        for (WorkloadCounter counter : em.createQuery("select c from WorkloadCounter c", WorkloadCounter.class)
                .setLockMode(lock).getResultList()) {
            result.computeIfAbsent(counter.getWorkload(), k -> new Workload()).accepted = counter.getAccepted();
        }
        // with each ended group's estimates and forecast-late jobs, for the predictive admission figures
        for (Object[] row : live("select j.workload, j.state, j.reason, count(j), coalesce(sum(j.estimate), 0),"
                + " sum(case when j.predictedAnswerAt > j.expiresAt then 1 else 0 end) from Job j where " + LIVE_JOB
                + " group by j.workload, j.state, j.reason", rolledUpTo)) {
            Workload w = result.computeIfAbsent((String) row[0], k -> new Workload());
            JobState state = (JobState) row[1];
            long count = ((Number) row[3]).longValue();
            w.jobs += count;
            if (state.isTerminal()) {
                w.terminal += count;
                w.outcomes.merge(state.name(), count, Long::sum);
                Outcome.of(state, (String) row[2]).ifPresent(o -> {
                    w.byOutcome.merge(o, count, Long::sum);
                    w.admission.add(o, count, (BigDecimal) row[4], BigDecimal.ZERO, ((Number) row[5]).longValue(),
                            BigDecimal.ZERO);
                });
            } else {
                w.inFlight += count;
                w.inFlightByState.merge(state.name(), count, Long::sum);
            }
        }
        for (Object[] row : rows("select j.workload, count(j) from Job j where j.state in :waiting"
                + " and j.expiresAt < :before group by j.workload", overdueBefore)) {
            result.computeIfAbsent((String) row[0], k -> new Workload()).overdue = ((Number) row[1]).longValue();
        }
        // a handoff is overdue only once its call's own timeout and the grace have passed
        for (Job job : em.createQuery("select j from Job j where j.state = io.lastcall.job.JobState.HANDED_OFF"
                + " and j.expiresAt < :before", Job.class).setParameter("before", overdueBefore).setMaxResults(10_000)
                .getResultList()) {
            if (settings.workloadOrDefault(job.getWorkload()).resultDueBy(job) + grace < now) {
                result.computeIfAbsent(job.getWorkload(), k -> new Workload()).overdue++;
            }
        }
        for (Object[] row : live("select a.workload, coalesce(sum(a.cost), 0), coalesce(sum(a.reserved), 0), count(a)"
                + " from Attempt a where " + LIVE_ATTEMPT + " group by a.workload", rolledUpTo)) {
            Workload w = result.computeIfAbsent((String) row[0], k -> new Workload());
            w.actualSpend = (BigDecimal) row[1];
            w.reserved = (BigDecimal) row[2];
            w.attempts = ((Number) row[3]).longValue();
        }
        for (Object[] row : endedAfterMark("select j.workload, j.estimateRevision, sum(j.estimate) from Job j"
                + " where j.finishedAt > :rolledUpTo and j.state = io.lastcall.job.JobState.EXPIRED_NOT_STARTED"
                + " group by j.workload, j.estimateRevision", rolledUpTo)) {
            Workload w = result.computeIfAbsent((String) row[0], k -> new Workload());
            w.avoidedExposureByEstimateRevision.put((String) row[1], (BigDecimal) row[2]);
            w.avoidedExposure = w.avoidedExposure.add((BigDecimal) row[2]);
        }
        for (Object[] row : live("select a.workload, a.jobId, a.generation from Attempt a where " + LIVE_ATTEMPT
                + " group by a.workload, a.jobId, a.generation having count(a) > 1", rolledUpTo)) {
            result.computeIfAbsent((String) row[0], k -> new Workload()).doubleClaims++;
        }
        lateSpend(result, rolledUpTo);
        for (EndedTotals ended : em.createQuery("select t from EndedTotals t", EndedTotals.class).getResultList()) {
            result.computeIfAbsent(ended.getWorkload(), k -> new Workload()).addEnded(ended);
        }
        return result;
    }

    /**
     * Per tenant, the jobs that ended in the {@link #TENANT_WINDOW_MS} before {@code now} (the
     * index on finished_at finds them), most jobs first: the first {@link #TENANTS_SHOWN}, then the
     * rest summed. A job accepted before tenants were recorded counts as its submitting user's.
     */
    @SuppressWarnings("unchecked")
    public List<Tenant> byTenant(long now) {
        Map<String, Tenant> sums = new TreeMap<>();
        for (Object[] row : (List<Object[]>) em.createQuery("select j.tenant, j.submittedBy, count(j),"
                + " sum(case when j.handedOffAt is not null then 1 else 0 end),"
                + " sum(case when j.state = io.lastcall.job.JobState.COMPLETED and j.reason = 'ON_TIME' then 1 else 0 end)"
                + " from Job j where j.finishedAt > :since group by j.tenant, j.submittedBy")
                .setParameter("since", now - TENANT_WINDOW_MS).getResultList()) {
            String tenant = Job.tenantOf((String) row[0], (String) row[1]);
            sums.merge(tenant, new Tenant(tenant, ((Number) row[2]).longValue(), ((Number) row[3]).longValue(),
                    ((Number) row[4]).longValue()), Tenant::plus);
        }
        List<Tenant> byJobs = new java.util.ArrayList<>(sums.values());
        byJobs.sort(java.util.Comparator.comparingLong(Tenant::ended).reversed().thenComparing(Tenant::tenant));
        if (byJobs.size() <= TENANTS_SHOWN) {
            return byJobs;
        }
        List<Tenant> shown = new java.util.ArrayList<>(byJobs.subList(0, TENANTS_SHOWN));
        shown.add(byJobs.subList(TENANTS_SHOWN, byJobs.size()).stream()
                .reduce(new Tenant(OTHER_TENANTS, 0, 0, 0), Tenant::plus));
        return shown;
    }

    /**
     * What the late answers of the jobs that ended after the mark cost, and those of them the
     * forecast named late (the rolled-up ones come with the ended totals).
     */
    private void lateSpend(Map<String, Workload> result, long rolledUpTo) {
        for (Object[] row : endedAfterMark("select a.workload, coalesce(sum(a.cost), 0),"
                + " coalesce(sum(case when j.predictedAnswerAt > j.expiresAt then a.cost else 0 end), 0)"
                + " from Attempt a, Job j where a.jobId = j.jobId and j.finishedAt > :rolledUpTo"
                + " and j.state = io.lastcall.job.JobState.COMPLETED and j.reason = 'LATE' group by a.workload",
                rolledUpTo)) {
            result.computeIfAbsent((String) row[0], k -> new Workload()).admission.add(Outcome.COMPLETED_LATE, 0, BigDecimal.ZERO, (BigDecimal) row[1], 0,
                    (BigDecimal) row[2]);
        }
    }

    /**
     * Over the jobs not rolled up: ended after the mark, or not ended (the indexes on finished_at
     * and state find them). {@code jpql} uses {@link #LIVE_JOB} or {@link #LIVE_ATTEMPT}.
     */
    @SuppressWarnings("unchecked")
    private List<Object[]> live(String jpql, long rolledUpTo) {
        return em.createQuery(jpql).setParameter("rolledUpTo", rolledUpTo).setParameter("open", JobState.open())
                .getResultList();
    }

    /** Over the jobs that ended after the mark ({@code jpql} names only {@code :rolledUpTo}). */
    @SuppressWarnings("unchecked")
    private List<Object[]> endedAfterMark(String jpql, long rolledUpTo) {
        return em.createQuery(jpql).setParameter("rolledUpTo", rolledUpTo).getResultList();
    }

    /** Not ended and not handed off: overdue once past the deadline plus the grace (the index on state finds them). */
    private static Set<JobState> waitingStates() {
        Set<JobState> waiting = JobState.open();
        waiting.remove(JobState.HANDED_OFF);
        return waiting;
    }

    @SuppressWarnings("unchecked")
    private List<Object[]> rows(String jpql, long before) {
        return em.createQuery(jpql).setParameter("before", before)
                .setParameter("waiting", waitingStates())
                .getResultList();
    }
}

package io.lastcall.policy;

/**
 * Policy of one workload ({@code lastcall.workload.<name>.*}, falling back to
 * {@code lastcall.workload.default.*}).
 *
 * @param maxHorizonMs   how far ahead expires_at may be at ingress
 * @param ttlCapMs       cap of the per-message TTL (the queue's x-message-ttl)
 * @param maxExecutionMs client timeout of a LATEST_START call
 * @param lateGraceMs    how long past a LATEST_USEFUL_COMPLETION deadline a response is still awaited
 * @param keepLateResults whether a late result's content is kept (its usage and cost always are)
 * @param maxAttempts    attempts per job, retries included
 * @param budget         spend plus reservations allowed per period, or null for no budget
 * @param budgetPeriod   {@code hour}, {@code day} or {@code month} (UTC)
 * @param admission      predictive admission of its LATEST_USEFUL_COMPLETION jobs
 * @param tenantFromEnvelope whether an envelope may name its tenant (else the submitting user is)
 */
public record WorkloadPolicy(String name, long maxHorizonMs, long ttlCapMs, long maxExecutionMs, long lateGraceMs,
        boolean keepLateResults, int maxAttempts, java.math.BigDecimal budget, String budgetPeriod,
        AdmissionMode admission, boolean tenantFromEnvelope) {

    /** Epoch ms at which the budget period containing {@code now} began. */
    public long budgetPeriodStart(long now) {
        java.time.ZonedDateTime t = java.time.Instant.ofEpochMilli(now).atZone(java.time.ZoneOffset.UTC);
        java.time.ZonedDateTime start = switch (budgetPeriod) {
            case "hour" -> t.truncatedTo(java.time.temporal.ChronoUnit.HOURS);
            case "month" -> t.truncatedTo(java.time.temporal.ChronoUnit.DAYS).withDayOfMonth(1);
            default -> t.truncatedTo(java.time.temporal.ChronoUnit.DAYS);
        };
        return start.toInstant().toEpochMilli();
    }

    /** The timeout of one call to the model that starts at {@code now}. */
    public long callTimeoutMs(io.lastcall.job.Deadline deadline, long now) {
        return deadline.callTimeoutMs(now, maxExecutionMs, lateGraceMs);
    }

    /** When a handed-off job's call must have ended: the handoff plus the call's timeout. */
    public long resultDueBy(io.lastcall.job.Job job) {
        return job.deadline().resultDueBy(job.getHandedOffAt(), maxExecutionMs, lateGraceMs);
    }
}

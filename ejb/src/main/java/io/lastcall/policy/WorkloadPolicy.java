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
 */
public record WorkloadPolicy(String name, long maxHorizonMs, long ttlCapMs, long maxExecutionMs, long lateGraceMs,
        boolean keepLateResults) {

    /** The HTTP client timeout for one attempt that starts at {@code now}. */
    public long callTimeoutMs(long expiresAt, long now, io.lastcall.job.DeadlineSemantics semantics) {
        if (semantics == io.lastcall.job.DeadlineSemantics.LATEST_USEFUL_COMPLETION) {
            return Math.max(1, Math.min(maxExecutionMs, Math.max(0, expiresAt - now) + lateGraceMs));
        }
        return Math.max(1, maxExecutionMs);
    }
}

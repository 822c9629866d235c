package io.lastcall.ledger;

/**
 * A search of the ledger: every field optional (null = any), {@code submittedBy} set to scope a
 * submitter to its own jobs, and a keyset position ({@code afterAcceptedAt}, {@code afterJobId}):
 * jobs come in (accepted_at, job_id) order — or the reverse with {@code newestFirst} — each page
 * starting after the last one of the page before.
 */
public record JobFilter(String workload, String state, String reason, Long from, Long to, String submittedBy,
        Long afterAcceptedAt, String afterJobId, int limit, boolean newestFirst) {

    public static final int MAX_LIMIT = 1_000;

    /** The same filter and position, {@code limit} jobs a page. */
    public JobFilter withLimit(int pageSize) {
        return new JobFilter(workload, state, reason, from, to, submittedBy, afterAcceptedAt, afterJobId, pageSize,
                newestFirst);
    }

    /** The same filter, positioned after {@code job}. */
    public JobFilter after(io.lastcall.job.Job job) {
        return new JobFilter(workload, state, reason, from, to, submittedBy, job.getAcceptedAt(), job.getJobId(),
                limit, newestFirst);
    }
}

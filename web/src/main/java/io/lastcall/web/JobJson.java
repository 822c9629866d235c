package io.lastcall.web;

import io.lastcall.job.Attempt;
import io.lastcall.job.Job;
import io.lastcall.ledger.LedgerQueries.JobDetails;
import jakarta.json.bind.annotation.JsonbNillable;
import jakarta.json.bind.annotation.JsonbProperty;
import java.math.BigDecimal;
import java.util.List;

/**
 * The job views of the API contract, as records JSON-B writes: a job with its trace and attempts,
 * and a job in a search result. A field without a value is written as null, never left out.
 */
public final class JobJson {

    private JobJson() {
    }

    /** A job: its fields, where it stands, its trace and its attempts. */
    @JsonbNillable
    public record JobView(@JsonbNillable @JsonbProperty("job_id") String jobId, String workload, String state, String outcome,
            String reason, String tenant, @JsonbNillable @JsonbProperty("expires_at") long expiresAt,
            @JsonbNillable @JsonbProperty("deadline_semantics") String deadlineSemantics,
            @JsonbNillable @JsonbProperty("min_execution_ms") long minExecutionMs, String subject,
            @JsonbNillable @JsonbProperty("source_revision") String sourceRevision,
            @JsonbNillable @JsonbProperty("schema_version") int schemaVersion, long generation,
            BigDecimal estimate, @JsonbNillable @JsonbProperty("estimate_revision") String estimateRevision,
            Trace trace, List<AttemptView> attempts) {
    }

    /** When each step happened (epoch ms), beside the deadline. */
    @JsonbNillable
    public record Trace(@JsonbNillable @JsonbProperty("accepted_at") long acceptedAt,
            @JsonbNillable @JsonbProperty("published_at") Long publishedAt,
            @JsonbNillable @JsonbProperty("received_at") Long receivedAt,
            @JsonbNillable @JsonbProperty("permit_at") Long permitAt,
            @JsonbNillable @JsonbProperty("checked_at") Long checkedAt,
            @JsonbNillable @JsonbProperty("handed_off_at") Long handedOffAt,
            @JsonbNillable @JsonbProperty("finished_at") Long finishedAt,
            @JsonbNillable @JsonbProperty("expires_at") long expiresAt) {
    }

    /** One attempt: its state, money, timings and what the backend answered. */
    @JsonbNillable
    public record AttemptView(@JsonbNillable @JsonbProperty("attempt_id") String attemptId, String state, long generation,
            Usage usage, BigDecimal estimate,
            @JsonbNillable @JsonbProperty("estimate_revision") String estimateRevision, BigDecimal reserved,
            BigDecimal cost, boolean late, @JsonbNillable @JsonbProperty("usage_missing") boolean usageMissing,
            @JsonbNillable @JsonbProperty("check_to_handoff_ms") Long checkToHandoffMs,
            @JsonbNillable @JsonbProperty("check_to_last_byte_ms") Long checkToLastByteMs,
            @JsonbNillable @JsonbProperty("instance_id") String instanceId,
            @JsonbNillable @JsonbProperty("claimed_at") long claimedAt,
            @JsonbNillable @JsonbProperty("handed_off_at") Long handedOffAt,
            @JsonbNillable @JsonbProperty("finished_at") Long finishedAt,
            @JsonbNillable @JsonbProperty("http_status") Integer httpStatus, String error, String result) {
    }

    /** The usage the backend reported (null when it did not). */
    @JsonbNillable
    public record Usage(@JsonbNillable @JsonbProperty("prompt_tokens") Long promptTokens,
            @JsonbNillable @JsonbProperty("completion_tokens") Long completionTokens) {
    }

    /** A job in a search result: who, what, where it stands; the attempts are in the job view and the export. */
    @JsonbNillable
    public record JobSummary(@JsonbNillable @JsonbProperty("job_id") String jobId, String workload, String state, String outcome,
            String reason, String subject, @JsonbNillable @JsonbProperty("expires_at") long expiresAt,
            @JsonbNillable @JsonbProperty("accepted_at") long acceptedAt,
            @JsonbNillable @JsonbProperty("finished_at") Long finishedAt,
            @JsonbNillable @JsonbProperty("submitted_by") String submittedBy, String tenant) {
    }

    static JobView of(JobDetails details) {
        Job job = details.job();
        return new JobView(job.getJobId(), job.getWorkload(), job.getState().name(), outcome(job), job.getReason(),
                job.getTenant(), job.getExpiresAt(), job.getDeadlineSemantics().name(), job.getMinExecutionMs(), job.getSubject(),
                job.getSourceRevision(), job.getSchemaVersion(), job.getGeneration(), job.getEstimate(),
                job.getEstimateRevision(), new Trace(job.getAcceptedAt(), job.getPublishedAt(), job.getReceivedAt(),
                        job.getPermitAt(), job.getCheckedAt(), job.getHandedOffAt(), job.getFinishedAt(),
                        job.getExpiresAt()),
                details.attempts().stream().map(JobJson::attempt).toList());
    }

    static JobSummary summary(Job job) {
        return new JobSummary(job.getJobId(), job.getWorkload(), job.getState().name(), outcome(job), job.getReason(),
                job.getSubject(), job.getExpiresAt(), job.getAcceptedAt(), job.getFinishedAt(), job.getSubmittedBy(),
                job.getTenant());
    }

    /** The terminal state, or null while the job has none. */
    private static String outcome(Job job) {
        return job.getState().isTerminal() ? job.getState().name() : null;
    }

    private static AttemptView attempt(Attempt a) {
        return new AttemptView(a.getAttemptId(), a.getState().name(), a.getGeneration(),
                new Usage(a.getPromptTokens(), a.getCompletionTokens()), a.getEstimate(), a.getEstimateRevision(),
                a.getReserved(), a.getCost(), a.isLate(), a.isUsageMissing(), a.getCheckToHandoffMs(),
                a.getCheckToLastByteMs(), a.getInstanceId(), a.getClaimedAt(), a.getHandedOffAt(), a.getFinishedAt(),
                a.getHttpStatus(), a.getError(), a.getResult());
    }
}

package io.lastcall.web;

import io.lastcall.ledger.LedgerQueries.JobDetails;
import io.lastcall.job.Attempt;
import io.lastcall.job.Job;
import java.util.LinkedHashMap;
import java.util.Map;

/** The job view of the API contract: job fields, outcome, trace and attempts. */
final class JobJson {

    private JobJson() {
    }

    static Map<String, Object> of(JobDetails details) {
        Job job = details.job();
        Map<String, Object> v = identity(job);
        v.put("expires_at", job.getExpiresAt());
        v.put("deadline_semantics", job.getDeadlineSemantics().name());
        v.put("min_execution_ms", job.getMinExecutionMs());
        v.put("subject", job.getSubject());
        v.put("source_revision", job.getSourceRevision());
        v.put("schema_version", job.getSchemaVersion());
        v.put("generation", job.getGeneration());
        v.put("estimate", job.getEstimate());
        v.put("estimate_revision", job.getEstimateRevision());
        Map<String, Object> trace = new LinkedHashMap<>();
        trace.put("accepted_at", job.getAcceptedAt());
        trace.put("published_at", job.getPublishedAt());
        trace.put("received_at", job.getReceivedAt());
        trace.put("permit_at", job.getPermitAt());
        trace.put("checked_at", job.getCheckedAt());
        trace.put("handed_off_at", job.getHandedOffAt());
        trace.put("finished_at", job.getFinishedAt());
        trace.put("expires_at", job.getExpiresAt());
        v.put("trace", trace);
        v.put("attempts", details.attempts().stream().map(JobJson::attempt).toList());
        return v;
    }

    /** A job in a search result: who, what, where it stands; the attempts are in the job view and the export. */
    static Map<String, Object> summary(Job job) {
        Map<String, Object> v = identity(job);
        v.put("subject", job.getSubject());
        v.put("expires_at", job.getExpiresAt());
        v.put("accepted_at", job.getAcceptedAt());
        v.put("finished_at", job.getFinishedAt());
        v.put("submitted_by", job.getSubmittedBy());
        return v;
    }

    /** What every view of a job starts with: which job, and where it stands. */
    private static Map<String, Object> identity(Job job) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("job_id", job.getJobId());
        v.put("workload", job.getWorkload());
        v.put("state", job.getState().name());
        v.put("outcome", job.getState().isTerminal() ? job.getState().name() : null);
        v.put("reason", job.getReason());
        return v;
    }

    private static Map<String, Object> attempt(Attempt a) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("attempt_id", a.getAttemptId());
        v.put("state", a.getState().name());
        v.put("generation", a.getGeneration());
        Map<String, Object> usage = new LinkedHashMap<>();
        usage.put("prompt_tokens", a.getPromptTokens());
        usage.put("completion_tokens", a.getCompletionTokens());
        v.put("usage", usage);
        v.put("estimate", a.getEstimate());
        v.put("estimate_revision", a.getEstimateRevision());
        v.put("reserved", a.getReserved());
        v.put("cost", a.getCost());
        v.put("late", a.isLate());
        v.put("usage_missing", a.isUsageMissing());
        v.put("check_to_handoff_ms", a.getCheckToHandoffMs());
        v.put("check_to_last_byte_ms", a.getCheckToLastByteMs());
        v.put("instance_id", a.getInstanceId());
        v.put("claimed_at", a.getClaimedAt());
        v.put("handed_off_at", a.getHandedOffAt());
        v.put("finished_at", a.getFinishedAt());
        v.put("http_status", a.getHttpStatus());
        v.put("error", a.getError());
        v.put("result", a.getResult());
        return v;
    }
}

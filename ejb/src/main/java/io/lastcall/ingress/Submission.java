package io.lastcall.ingress;

import io.lastcall.job.DeadlineSemantics;

/** A valid envelope, ready to become a job. {@code payload} is the request as JSON text. */
public record Submission(String jobId, String workload, int schemaVersion, long expiresAt,
        DeadlineSemantics semantics, long minExecutionMs, String subject, String sourceRevision,
        String model, long maxTokens, long promptChars, String payload) {
}

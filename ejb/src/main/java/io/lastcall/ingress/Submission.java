package io.lastcall.ingress;

import io.lastcall.job.Deadline;

/**
 * A valid envelope, ready to become a job. {@code payload} is the request as JSON text;
 * {@code promptTexts} the text of each message and {@code definitionTexts} the JSON of the tools,
 * functions, tool choice and response format (what the estimate counts prompt tokens of);
 * {@code maxTokens} the larger of {@code max_tokens} and {@code max_completion_tokens};
 * {@code choices} the request's {@code n}; {@code tenant} the envelope's, or null when the
 * submitting user is the tenant.
 */
public record Submission(String jobId, String workload, int schemaVersion, Deadline deadline, String subject,
        String sourceRevision,
        String model, long maxTokens, long choices, java.util.List<String> promptTexts,
        java.util.List<String> definitionTexts, String payload, String tenant) {
}

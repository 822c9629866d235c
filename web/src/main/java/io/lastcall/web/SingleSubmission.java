package io.lastcall.web;

import io.lastcall.ingress.JobIngress;
import io.lastcall.ingress.Rejection;
import io.lastcall.ledger.LedgerQueries;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;

/**
 * What {@code POST /api/jobs} answers for a JSON body, whichever layer carries it: the job view
 * (201 new, 200 a repeat) or a {@link Refusal} with its status. {@link JobSubmitFilter} answers
 * it on the servlet path; {@link JobsResource#submit} is the same answer through JAX-RS.
 */
final class SingleSubmission {

    /** A status and its body: a {@link JobJson.JobView} or a {@link Refusal}. */
    record Answer(int status, Object body) {
    }

    private SingleSubmission() {
    }

    static Answer answer(InputStream stream, long maxBodyBytes, String principal, JobIngress ingress,
            LedgerQueries queries) throws IOException {
        Optional<String> body = BoundedBody.read(stream, maxBodyBytes);
        if (body.isEmpty()) {
            return refused(Rejection.BODY_TOO_LARGE, "the body is larger than " + maxBodyBytes
                    + " bytes (lastcall.ingress.max-body-bytes)");
        }
        Optional<JsonObject> envelope = JsonBody.object(body.get());
        if (envelope.isEmpty()) {
            return refused(Rejection.BODY_MALFORMED, "the body is not a JSON object");
        }
        JobIngress.Verdict verdict = ingress.submit(envelope.get(), principal);
        if (verdict.rejection() != null) {
            return refused(verdict.rejection(), verdict.message());
        }
        // a new job is answered as ingress left it; a repeat is read as it stands now
        LedgerQueries.JobDetails job = verdict.accepted() != null
                ? new LedgerQueries.JobDetails(verdict.accepted(), List.of())
                : queries.details(verdict.jobId()).orElseThrow();
        return new Answer(verdict.status(), JobJson.of(job));
    }

    static Answer refused(Rejection reason, String message) {
        return new Answer(reason.status(), Refusal.of(reason, message));
    }
}

package io.lastcall.ingress;

/** Why ingress refused a submission: a stable machine-readable reason and its HTTP status. */
public enum Rejection {
    BODY_MALFORMED(400),
    /** the request body is larger than lastcall.ingress.max-body-bytes */
    BODY_TOO_LARGE(413),
    JOB_ID_MALFORMED(400),
    WORKLOAD_MISSING(400),
    WORKLOAD_UNKNOWN(422),
    SCHEMA_MISSING(400),
    SCHEMA_UNSUPPORTED(422),
    DEADLINE_MISSING(400),
    DEADLINE_MALFORMED(400),
    DEADLINE_PASSED(422),
    DEADLINE_TOO_FAR(422),
    SEMANTICS_INVALID(400),
    MIN_EXECUTION_MISSING(400),
    MIN_EXECUTION_MALFORMED(400),
    MIN_EXECUTION_DOES_NOT_FIT(422),
    SUBJECT_MISSING(400),
    /** longer than 255 characters, or control characters */
    SUBJECT_INVALID(400),
    REVISION_MISSING(400),
    /** longer than 255 characters, or control characters */
    REVISION_INVALID(400),
    /** not a non-blank string of at most 128 characters without control characters */
    TENANT_INVALID(400),
    /** an envelope names a tenant, and its workload does not allow it (tenant-from-envelope) */
    TENANT_NOT_ALLOWED(422),
    PAYLOAD_MISSING(400),
    PAYLOAD_INVALID(400),
    /** a request parameter whose cost lastcall cannot estimate or record (e.g. "stream": true) */
    PAYLOAD_NOT_ACCOUNTABLE(422),
    /** the model has no configured price and no default price is set: its cost could not be estimated */
    PRICE_UNKNOWN(422),
    /** the same job_id with another deadline: a repeat cannot extend it */
    DEADLINE_CONFLICT(409),
    /** the job_id belongs to a job another user submitted */
    JOB_ID_TAKEN(409),
    CLOCK_UNHEALTHY(503),
    /** the ledger database does not answer (found by the clock check when the database is its reference) */
    LEDGER_UNAVAILABLE(503);

    private final int status;

    Rejection(int status) {
        this.status = status;
    }

    public int status() {
        return status;
    }
}

package io.lastcall.job;

import java.util.Set;

/**
 * The one check of a broker message against the ledger, used by the worker and the dead-letter
 * path alike: the body must be a reference of a supported schema, to a job the ledger knows,
 * with the ledger's own deadline (a producer can never extend a deadline). Pure: the caller
 * looks the job up (under its row lock) between {@link #parse} and {@link #against}.
 */
public final class ReferenceCheck {

    /** Either a trusted reference or why it is not trusted. */
    public record Verdict(Reference reference, QuarantinedMessage.Reason reason, String detail) {
        public boolean trusted() {
            return reason == null;
        }

        static Verdict untrusted(Reference reference, QuarantinedMessage.Reason reason, String detail) {
            return new Verdict(reference, reason, detail);
        }
    }

    private ReferenceCheck() {
    }

    /** The reference in a message body, if it is one of a supported schema. */
    public static Verdict parse(String body, Set<Integer> schemaVersions) {
        Reference ref;
        try {
            ref = Reference.parse(body);
        } catch (Reference.Malformed e) {
            return Verdict.untrusted(null, QuarantinedMessage.Reason.REFERENCE_MALFORMED, e.getMessage());
        }
        if (!schemaVersions.contains(ref.schemaVersion())) {
            return Verdict.untrusted(ref, QuarantinedMessage.Reason.SCHEMA_UNSUPPORTED,
                    "schema_version " + ref.schemaVersion() + " is not one of " + schemaVersions);
        }
        return new Verdict(ref, null, null);
    }

    /** A parsed reference against the ledger's job ({@code null} when there is none). */
    public static Verdict against(Reference ref, Job job) {
        if (job == null) {
            return Verdict.untrusted(ref, QuarantinedMessage.Reason.REFERENCE_UNKNOWN_JOB,
                    "no job " + ref.jobId() + " in the ledger");
        }
        if (job.getExpiresAt() != ref.expiresAt()) {
            return Verdict.untrusted(ref, QuarantinedMessage.Reason.REFERENCE_DEADLINE_MISMATCH,
                    "message says expires_at " + ref.expiresAt() + ", the ledger " + job.getExpiresAt());
        }
        return new Verdict(ref, null, null);
    }
}

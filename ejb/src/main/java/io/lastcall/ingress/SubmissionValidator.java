package io.lastcall.ingress;

import io.lastcall.job.Deadline;
import io.lastcall.job.DeadlineSemantics;
import io.lastcall.policy.WorkloadPolicy;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.regex.Pattern;

/** Checks one envelope (docs/design.md §1–2). Pure: the caller supplies the time, the margin and the policies. */
public final class SubmissionValidator {

    /** Either a submission or the first problem found. */
    public record Result(Submission submission, Rejection rejection, String message) {
        public boolean valid() {
            return submission != null;
        }
    }

    private static final Pattern JOB_ID = io.lastcall.job.Reference.JOB_ID;
    private static final Set<String> RESERVED_JOB_IDS = Set.of("export", "batch");
    private static final long MAX_TOKENS_LIMIT = 1_000_000;
    private static final java.util.List<String> OUTPUT_LIMITS = java.util.List.of("max_tokens", "max_completion_tokens");
    /** request fields the provider bills as prompt tokens besides the messages */
    private static final java.util.List<String> PROMPT_DEFINITIONS = java.util.List.of("tools", "functions",
            "tool_choice", "response_format");
    private static final long MAX_CHOICES = 128;
    /** the ledger's column lengths */
    static final int MAX_SUBJECT = 255;
    static final int MAX_TENANT = 128;
    static final int MAX_REVISION = 255;
    static final int MAX_MODEL = 128;

    private SubmissionValidator() {
    }

    private static Result reject(Rejection reason, String message) {
        return new Result(null, reason, message);
    }

    public static Result validate(JsonObject o, long now, long clockUncertaintyMs,
            Function<String, Optional<WorkloadPolicy>> policies, Set<Integer> schemaVersions) {
        if (o == null) {
            return reject(Rejection.BODY_MALFORMED, "the body must be a JSON object");
        }
        String jobId;
        JsonValue id = o.get("job_id");
        if (id == null || id == JsonValue.NULL) {
            jobId = "job-" + UUID.randomUUID();
        } else if (id instanceof JsonString s && RESERVED_JOB_IDS.contains(s.getString())) {
            // GET /api/jobs/export and POST /api/jobs/batch: a job of that name could never be fetched
            return reject(Rejection.JOB_ID_MALFORMED, "job_id '" + s.getString() + "' is reserved (a path of the API)");
        } else if (id instanceof JsonString s && JOB_ID.matcher(s.getString()).matches()) {
            jobId = s.getString();
        } else {
            return reject(Rejection.JOB_ID_MALFORMED, "job_id must be 1-128 characters of A-Z a-z 0-9 . _ : @ -");
        }

        String workload = text(o, "workload");
        if (workload == null) {
            return reject(Rejection.WORKLOAD_MISSING, "workload is required");
        }
        Optional<WorkloadPolicy> policy = policies.apply(workload);
        if (policy.isEmpty()) {
            return reject(Rejection.WORKLOAD_UNKNOWN, "workload '" + workload + "' is not configured (lastcall.workloads)");
        }

        JsonValue schema = o.get("schema_version");
        if (schema == null || schema == JsonValue.NULL) {
            return reject(Rejection.SCHEMA_MISSING, "schema_version is required");
        }
        Long schemaNumber = wholeNumber(schema);
        if (schemaNumber == null || schemaNumber < Integer.MIN_VALUE || schemaNumber > Integer.MAX_VALUE
                || !schemaVersions.contains(schemaNumber.intValue())) {
            return reject(Rejection.SCHEMA_UNSUPPORTED, "schema_version " + abbreviate(schema.toString())
                    + " is not supported; supported: " + schemaVersions);
        }

        JsonValue expiresAtValue = o.get("expires_at");
        if (expiresAtValue == null || expiresAtValue == JsonValue.NULL) {
            return reject(Rejection.DEADLINE_MISSING, "expires_at (epoch milliseconds) is required");
        }
        Long expiresAt = wholeNumber(expiresAtValue);
        if (expiresAt == null || expiresAt <= 0) {
            return reject(Rejection.DEADLINE_MALFORMED, "expires_at must be a positive whole number of epoch"
                    + " milliseconds, not " + abbreviate(expiresAtValue.toString()));
        }

        DeadlineSemantics semantics = DeadlineSemantics.LATEST_START;
        JsonValue sem = o.get("deadline_semantics");
        if (sem != null && sem != JsonValue.NULL) {
            try {
                semantics = DeadlineSemantics.valueOf(((JsonString) sem).getString());
            } catch (ClassCastException | IllegalArgumentException e) {
                return reject(Rejection.SEMANTICS_INVALID, "deadline_semantics must be LATEST_START or"
                        + " LATEST_USEFUL_COMPLETION, not " + sem);
            }
        }

        long minExecutionMs = 0;
        JsonValue minExec = o.get("min_execution_ms");
        if (minExec != null && minExec != JsonValue.NULL) {
            Long parsed = wholeNumber(minExec);
            if (parsed == null || parsed < 0) {
                return reject(Rejection.MIN_EXECUTION_MALFORMED, "min_execution_ms must be a whole number ≥ 0");
            }
            minExecutionMs = parsed;
        }
        if (semantics == DeadlineSemantics.LATEST_USEFUL_COMPLETION && minExecutionMs <= 0) {
            return reject(Rejection.MIN_EXECUTION_MISSING, "LATEST_USEFUL_COMPLETION requires min_execution_ms > 0");
        }

        Deadline deadline = new Deadline(expiresAt, semantics, minExecutionMs);
        if (!Deadline.latestStart(expiresAt).mayDispatch(now, clockUncertaintyMs)) {
            return reject(Rejection.DEADLINE_PASSED, "expires_at " + expiresAt + " is not after now (" + now
                    + ") plus the clock uncertainty of " + clockUncertaintyMs + " ms");
        }
        if (!deadline.mayDispatch(now, clockUncertaintyMs)) {
            return reject(Rejection.MIN_EXECUTION_DOES_NOT_FIT, "min_execution_ms " + minExecutionMs
                    + " does not fit before expires_at " + expiresAt);
        }
        long horizon = policy.get().maxHorizonMs();
        if (expiresAt - now > horizon) {
            return reject(Rejection.DEADLINE_TOO_FAR, "expires_at is more than " + horizon + " ms ahead (max_horizon of "
                    + workload + ")");
        }

        String subject = text(o, "subject");
        if (subject == null) {
            return reject(Rejection.SUBJECT_MISSING, "subject is required");
        }
        if (!storable(subject, MAX_SUBJECT)) {
            return reject(Rejection.SUBJECT_INVALID, "subject must be at most " + MAX_SUBJECT
                    + " characters without control characters (got " + subject.length() + ")");
        }
        String revision = text(o, "source_revision");
        if (revision == null) {
            return reject(Rejection.REVISION_MISSING, "source_revision is required");
        }
        if (!storable(revision, MAX_REVISION)) {
            return reject(Rejection.REVISION_INVALID, "source_revision must be at most " + MAX_REVISION
                    + " characters without control characters (got " + revision.length() + ")");
        }

        String tenant = null;
        JsonValue tenantValue = o.get("tenant");
        if (tenantValue != null && tenantValue != JsonValue.NULL) {
            if (!policy.get().tenantFromEnvelope()) {
                return reject(Rejection.TENANT_NOT_ALLOWED, "workload '" + workload + "' counts the submitting user as"
                        + " the tenant; lastcall.workload." + workload + ".tenant-from-envelope=true lets an envelope"
                        + " name its own");
            }
            if (!(tenantValue instanceof JsonString t) || t.getString().isBlank() || !storable(t.getString(), MAX_TENANT)) {
                return reject(Rejection.TENANT_INVALID, "tenant must be a non-blank string of at most " + MAX_TENANT
                        + " characters without control characters");
            }
            tenant = t.getString();
        }

        JsonValue payloadValue = o.get("payload");
        if (payloadValue == null || payloadValue == JsonValue.NULL) {
            return reject(Rejection.PAYLOAD_MISSING, "payload (a chat completions request) is required");
        }
        if (!(payloadValue instanceof JsonObject payload)) {
            return reject(Rejection.PAYLOAD_INVALID, "payload must be an object");
        }
        String model = text(payload, "model");
        if (model == null) {
            return reject(Rejection.PAYLOAD_INVALID, "payload.model is required");
        }
        if (!storable(model, MAX_MODEL)) {
            return reject(Rejection.PAYLOAD_INVALID, "payload.model must be at most " + MAX_MODEL
                    + " characters without control characters");
        }
        JsonValue stream = payload.get("stream");
        if (stream != null && stream != JsonValue.NULL && stream != JsonValue.FALSE) {
            return reject(Rejection.PAYLOAD_NOT_ACCOUNTABLE, "payload.stream is not supported: a streamed answer"
                    + " carries no usage lastcall could record, so its cost could not be accounted");
        }
        long choices = 1;
        JsonValue n = payload.get("n");
        if (n != null && n != JsonValue.NULL) {
            Long parsed = wholeNumber(n);
            if (parsed == null || parsed < 1 || parsed > MAX_CHOICES) {
                return reject(Rejection.PAYLOAD_INVALID, "payload.n must be a whole number from 1 to " + MAX_CHOICES);
            }
            choices = parsed;
        }
        // the provider honours max_completion_tokens (the newer name) or max_tokens: the estimate takes the larger
        Long maxTokens = null;
        for (String field : OUTPUT_LIMITS) {
            JsonValue limit = payload.get(field);
            if (limit == null || limit == JsonValue.NULL) {
                continue;
            }
            Long parsed = wholeNumber(limit);
            if (parsed == null || parsed < 1 || parsed > MAX_TOKENS_LIMIT) {
                return reject(Rejection.PAYLOAD_INVALID, "payload." + field + " must be a whole number from 1 to "
                        + MAX_TOKENS_LIMIT);
            }
            maxTokens = maxTokens == null ? parsed : Math.max(maxTokens, parsed);
        }
        if (maxTokens == null) {
            return reject(Rejection.PAYLOAD_INVALID, "payload.max_tokens (or max_completion_tokens) is required:"
                    + " it bounds what the answer may cost");
        }
        if (!(payload.get("messages") instanceof JsonArray messages) || messages.isEmpty()) {
            return reject(Rejection.PAYLOAD_INVALID, "payload.messages must be a non-empty array");
        }
        java.util.List<String> promptTexts = new java.util.ArrayList<>();
        for (JsonValue m : messages) {
            if (!(m instanceof JsonObject message) || text(message, "role") == null
                    || !(message.get("content") instanceof JsonString content)) {
                return reject(Rejection.PAYLOAD_INVALID, "each payload.messages entry needs a role and a string content");
            }
            promptTexts.add(content.getString());
        }
        java.util.List<String> definitionTexts = new java.util.ArrayList<>();
        for (String field : PROMPT_DEFINITIONS) {
            JsonValue definition = payload.get(field);
            if (definition != null && definition != JsonValue.NULL) {
                definitionTexts.add(definition.toString());
            }
        }
        return new Result(new Submission(jobId, workload, schemaNumber.intValue(), deadline, subject, revision, model,
                maxTokens, choices, promptTexts, definitionTexts,
                payload.toString(), tenant), null, null);
    }

    /** Fits its column and holds no control character (U+0000 cannot be stored in PostgreSQL at all). */
    private static boolean storable(String value, int maxLength) {
        return value.length() <= maxLength && value.chars().noneMatch(c -> c < 0x20 || c == 0x7f);
    }

    private static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "…";
    }

    private static String text(JsonObject o, String field) {
        return o.get(field) instanceof JsonString s && !s.getString().isBlank() ? s.getString() : null;
    }

    private static Long wholeNumber(JsonValue v) {
        if (!(v instanceof JsonNumber n) || !n.isIntegral()) {
            return null;
        }
        try {
            return n.longValueExact();
        } catch (ArithmeticException e) {
            return null;
        }
    }
}

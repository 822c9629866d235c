package io.lastcall.ingress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lastcall.job.DeadlineSemantics;
import io.lastcall.policy.WorkloadPolicy;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SubmissionValidatorTest {

    private static final long NOW = 1_000_000;
    private static final WorkloadPolicy POLICY = new WorkloadPolicy("incident-summary", 3_600_000, 600_000, 60_000,
            30_000, true, 3, null, "day", io.lastcall.policy.AdmissionMode.SHADOW, false);

    private static JsonObjectBuilder valid() {
        return Json.createObjectBuilder()
                .add("job_id", "inc-42-r7").add("workload", "incident-summary").add("schema_version", 1)
                .add("expires_at", NOW + 60_000).add("deadline_semantics", "LATEST_START").add("min_execution_ms", 0)
                .add("subject", "INC-42").add("source_revision", "r7")
                .add("payload", Json.createObjectBuilder().add("model", "m").add("max_tokens", 256)
                        .add("messages", Json.createArrayBuilder().add(Json.createObjectBuilder()
                                .add("role", "user").add("content", "summarize"))));
    }

    private static SubmissionValidator.Result check(JsonObject o) {
        return SubmissionValidator.validate(o, NOW, 50,
                w -> "incident-summary".equals(w) ? Optional.of(POLICY) : Optional.empty(), Set.of(1));
    }

    private static void rejects(Rejection expected, JsonObjectBuilder o) {
        SubmissionValidator.Result r = check(o.build());
        assertEquals(expected, r.rejection(), String.valueOf(r.message()));
        assertTrue(r.message() != null && !r.message().isBlank());
    }

    @Test
    void aValidEnvelope() {
        SubmissionValidator.Result r = check(valid().build());
        assertTrue(r.valid(), r.message());
        assertEquals("inc-42-r7", r.submission().jobId());
        assertEquals(NOW + 60_000, r.submission().deadline().expiresAt());
        assertEquals(256, r.submission().maxTokens());
        assertEquals(java.util.List.of("summarize"), r.submission().promptTexts());
        assertEquals(1, r.submission().choices());
    }

    @Test
    void deadlineProblems() {
        rejects(Rejection.DEADLINE_MISSING, valid().remove("expires_at"));
        rejects(Rejection.DEADLINE_MISSING, valid().addNull("expires_at"));
        rejects(Rejection.DEADLINE_MALFORMED, valid().add("expires_at", "1764680000000"));
        rejects(Rejection.DEADLINE_MALFORMED, valid().add("expires_at", 1.5));
        rejects(Rejection.DEADLINE_MALFORMED, valid().add("expires_at", -5));
        rejects(Rejection.DEADLINE_MALFORMED, valid().add("expires_at", new java.math.BigInteger("99999999999999999999")));
        rejects(Rejection.DEADLINE_PASSED, valid().add("expires_at", NOW));
        rejects(Rejection.DEADLINE_PASSED, valid().add("expires_at", NOW + 50), "within the clock uncertainty");
        assertTrue(check(valid().add("expires_at", NOW + 51).build()).valid(), "1 ms beyond the margin");
        rejects(Rejection.DEADLINE_TOO_FAR, valid().add("expires_at", NOW + 3_600_001));
        assertTrue(check(valid().add("expires_at", NOW + 3_600_000).build()).valid(), "exactly at the horizon");
    }

    private static void rejects(Rejection expected, JsonObjectBuilder o, String why) {
        assertEquals(expected, check(o.build()).rejection(), why);
    }

    @Test
    void usefulCompletionNeedsAMinimumThatFits() {
        rejects(Rejection.MIN_EXECUTION_MISSING, valid().add("deadline_semantics", "LATEST_USEFUL_COMPLETION"));
        rejects(Rejection.MIN_EXECUTION_DOES_NOT_FIT, valid().add("deadline_semantics", "LATEST_USEFUL_COMPLETION")
                .add("min_execution_ms", 59_950));
        SubmissionValidator.Result ok = check(valid().add("deadline_semantics", "LATEST_USEFUL_COMPLETION")
                .add("min_execution_ms", 59_949).build());
        assertEquals(DeadlineSemantics.LATEST_USEFUL_COMPLETION, ok.submission().deadline().semantics());
        rejects(Rejection.MIN_EXECUTION_MALFORMED, valid().add("min_execution_ms", -1));
        rejects(Rejection.MIN_EXECUTION_MALFORMED, valid().add("min_execution_ms", "1000"));
        rejects(Rejection.SEMANTICS_INVALID, valid().add("deadline_semantics", "SOMETIME"));
    }

    @Test
    void envelopeProblems() {
        rejects(Rejection.SCHEMA_UNSUPPORTED, valid().add("schema_version", 2));
        rejects(Rejection.SCHEMA_MISSING, valid().remove("schema_version"));
        rejects(Rejection.REVISION_MISSING, valid().remove("source_revision"));
        rejects(Rejection.REVISION_MISSING, valid().add("source_revision", " "));
        rejects(Rejection.SUBJECT_MISSING, valid().remove("subject"));
        rejects(Rejection.WORKLOAD_MISSING, valid().remove("workload"));
        rejects(Rejection.WORKLOAD_UNKNOWN, valid().add("workload", "mystery"));
        rejects(Rejection.JOB_ID_MALFORMED, valid().add("job_id", "has space"));
        rejects(Rejection.JOB_ID_MALFORMED, valid().add("job_id", 42));
        rejects(Rejection.JOB_ID_MALFORMED, valid().add("job_id", "export"));
        rejects(Rejection.JOB_ID_MALFORMED, valid().add("job_id", "batch"));
        rejects(Rejection.PAYLOAD_MISSING, valid().remove("payload"));
        rejects(Rejection.PAYLOAD_INVALID, valid().add("payload", Json.createObjectBuilder().add("model", "m")));
        rejects(Rejection.PAYLOAD_INVALID, valid().add("payload", Json.createObjectBuilder().add("model", "m")
                .add("max_tokens", 0).add("messages", Json.createArrayBuilder())));
    }

    @Test
    void lengthsAndCharactersThatTheLedgerCouldNotStoreAreRefused() {
        rejects(Rejection.SUBJECT_INVALID, valid().add("subject", "s".repeat(5_000)));
        rejects(Rejection.SUBJECT_INVALID, valid().add("subject", "INC\u0000-42"));
        assertTrue(check(valid().add("subject", "s".repeat(255)).build()).valid(), "exactly the column's length");
        rejects(Rejection.REVISION_INVALID, valid().add("source_revision", "r".repeat(256)));
        rejects(Rejection.PAYLOAD_INVALID, valid().add("payload", Json.createObjectBuilder().add("model", "m".repeat(129))
                .add("max_tokens", 5).add("messages", Json.createArrayBuilder().add(Json.createObjectBuilder()
                        .add("role", "user").add("content", "x")))));
        rejects(Rejection.JOB_ID_MALFORMED, valid().add("job_id", "j".repeat(129)));
        rejects(Rejection.SCHEMA_UNSUPPORTED, valid().add("schema_version", 4_294_967_297L),
                "2^32 + 1 would truncate to 1");
    }

    @Test
    void parametersWhoseCostCannotBeAccountedAreRefusedOrCounted() {
        JsonObjectBuilder payload = Json.createObjectBuilder().add("model", "m").add("max_tokens", 5)
                .add("messages", Json.createArrayBuilder().add(Json.createObjectBuilder()
                        .add("role", "user").add("content", "x")));
        rejects(Rejection.PAYLOAD_NOT_ACCOUNTABLE, valid().add("payload", payload.add("stream", true)));
        payload = Json.createObjectBuilder().add("model", "m").add("max_tokens", 5).add("n", 8)
                .add("messages", Json.createArrayBuilder().add(Json.createObjectBuilder()
                        .add("role", "user").add("content", "x")));
        assertEquals(8, check(valid().add("payload", payload).build()).submission().choices());
        payload = Json.createObjectBuilder().add("model", "m").add("max_tokens", 5).add("n", 0)
                .add("messages", Json.createArrayBuilder().add(Json.createObjectBuilder()
                        .add("role", "user").add("content", "x")));
        rejects(Rejection.PAYLOAD_INVALID, valid().add("payload", payload));
    }

    @Test
    void everyTokenBearingFieldCounts() {
        JsonObjectBuilder payload = Json.createObjectBuilder().add("model", "m").add("max_tokens", 5)
                .add("max_completion_tokens", 900)
                .add("tools", Json.createArrayBuilder().add(Json.createObjectBuilder().add("type", "function")))
                .add("response_format", Json.createObjectBuilder().add("type", "json_object"))
                .add("messages", Json.createArrayBuilder().add(Json.createObjectBuilder()
                        .add("role", "user").add("content", "x")));
        Submission s = check(valid().add("payload", payload).build()).submission();
        assertEquals(900, s.maxTokens(), "the larger output limit is what may be billed");
        assertEquals(java.util.List.of("[{\"type\":\"function\"}]", "{\"type\":\"json_object\"}"),
                s.definitionTexts(), "tools and response format are prompt tokens too");
        JsonObjectBuilder newer = Json.createObjectBuilder().add("model", "m").add("max_completion_tokens", 64)
                .add("messages", Json.createArrayBuilder().add(Json.createObjectBuilder()
                        .add("role", "user").add("content", "x")));
        assertEquals(64, check(valid().add("payload", newer).build()).submission().maxTokens(),
                "max_completion_tokens alone is a limit");
        JsonObjectBuilder none = Json.createObjectBuilder().add("model", "m")
                .add("messages", Json.createArrayBuilder().add(Json.createObjectBuilder()
                        .add("role", "user").add("content", "x")));
        rejects(Rejection.PAYLOAD_INVALID, valid().add("payload", none));
    }

    @Test
    void aMissingJobIdIsAssigned() {
        SubmissionValidator.Result r = check(valid().remove("job_id").build());
        assertTrue(r.valid());
        assertTrue(r.submission().jobId().startsWith("job-"));
    }

    @Test
    void anEnvelopeNamesItsTenantOnlyWhereItsWorkloadAllowsIt() {
        rejects(Rejection.TENANT_NOT_ALLOWED, valid().add("tenant", "acme"));
        assertEquals(null, check(valid().build()).submission().tenant(), "absent: the submitting user is the tenant");

        WorkloadPolicy open = new WorkloadPolicy("gateway", 3_600_000, 600_000, 60_000, 30_000, true, 3, null, "day",
                io.lastcall.policy.AdmissionMode.SHADOW, true);
        java.util.function.Function<JsonObjectBuilder, SubmissionValidator.Result> viaGateway = o -> SubmissionValidator
                .validate(o.add("workload", "gateway").build(), NOW, 50,
                        w -> "gateway".equals(w) ? Optional.of(open) : Optional.empty(), Set.of(1));
        assertEquals("acme", viaGateway.apply(valid().add("tenant", "acme")).submission().tenant());
        assertEquals(null, viaGateway.apply(valid()).submission().tenant());
        for (JsonObjectBuilder wrong : java.util.List.of(valid().add("tenant", " "), valid().add("tenant", 42),
                valid().add("tenant", "a\nb"), valid().add("tenant", "x".repeat(129)))) {
            assertEquals(Rejection.TENANT_INVALID, viaGateway.apply(wrong).rejection());
        }
    }
}

package io.lastcall.ingress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lastcall.job.JsonArbitraries;
import io.lastcall.job.JsonText;
import io.lastcall.policy.WorkloadPolicy;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/**
 * Property-based: whatever a producer sends as an envelope, the validator answers with a
 * submission or with a rejection that has a reason and a message, never with an exception; and an
 * accepted envelope, written back from its submission, is accepted again as the same submission.
 * The envelopes are valid ones with fields replaced by, or removed for, arbitrary JSON: wrong
 * types, huge and fractional numbers, unicode (control characters, lone surrogates), empty and
 * enormous strings, deep nesting.
 */
class SubmissionPropertiesTest {

    static final long NOW = 1_000_000_000_000L;
    private static final WorkloadPolicy POLICY = new WorkloadPolicy("incident-summary", 3_600_000, 600_000, 60_000,
            30_000, true, 3, null, "day", io.lastcall.policy.AdmissionMode.SHADOW, false);

    static SubmissionValidator.Result validate(JsonObject envelope) {
        return SubmissionValidator.validate(envelope, NOW, 50,
                w -> "incident-summary".equals(w) ? Optional.of(POLICY) : Optional.empty(), Set.of(1, 2));
    }

    @Property(tries = 10_000)
    void everyEnvelopeIsAcceptedOrRejectedWithAReason(@ForAll("envelopes") JsonObject envelope) {
        SubmissionValidator.Result result = validate(envelope);
        // the distribution of answers is printed with the report: both kinds must be exercised
        Statistics.collect(result.valid() ? "accepted" : result.rejection().name());
        if (result.valid()) {
            assertNull(result.rejection());
            Submission submission = result.submission();
            assertNotNull(submission);
            assertEquals(submission, validate(envelopeOf(submission)).submission(), "accepted again, unchanged");
        } else {
            assertNotNull(result.rejection(), "a rejection names its reason");
            assertTrue(result.message() != null && !result.message().isBlank(), "and says why");
        }
    }

    @Property(tries = 2_000)
    void anyJsonObjectIsAcceptedOrRejectedWithAReason(@ForAll("objects") JsonObject anything) {
        SubmissionValidator.Result result = validate(anything);
        assertTrue(result.valid() || (result.rejection() != null && !result.message().isBlank()), result.toString());
    }

    /** The envelope a client would send for this submission. */
    private static JsonObject envelopeOf(Submission s) {
        try (JsonReader reader = JsonText.reader(s.payload())) {
            return Json.createObjectBuilder().add("job_id", s.jobId()).add("workload", s.workload())
                    .add("schema_version", s.schemaVersion()).add("expires_at", s.deadline().expiresAt())
                    .add("deadline_semantics", s.deadline().semantics().name()).add("min_execution_ms", s.deadline().minExecutionMs())
                    .add("subject", s.subject()).add("source_revision", s.sourceRevision())
                    .add("payload", reader.readObject()).build();
        }
    }

    @Provide
    Arbitrary<JsonObject> envelopes() {
        Arbitrary<JsonObject> payloads = fields(Map.of(
                "model", Arbitraries.of(Json.createValue("gpt-4o-mini"), Json.createValue("sim"), Json.createValue("m")),
                "max_tokens", Arbitraries.of(Json.createValue(256), Json.createValue(1), Json.createValue(1_000_000)),
                "messages", Arbitraries.just(Json.createArrayBuilder().add(Json.createObjectBuilder()
                        .add("role", "user").add("content", "Summarize INC-42")).build()),
                "n", Arbitraries.of(Json.createValue(1), Json.createValue(128)),
                "stream", Arbitraries.just(JsonValue.FALSE)));
        return fields(Map.of(
                "job_id", Arbitraries.strings().withChars("abcXYZ019._:@-").ofMinLength(1).ofMaxLength(128)
                        .map(s -> (JsonValue) Json.createValue(s)),
                "workload", Arbitraries.frequencyOf(Tuple.of(9, Arbitraries.just(Json.createValue("incident-summary"))),
                        Tuple.of(1, Arbitraries.just(Json.createValue("report")))),
                "schema_version", Arbitraries.frequencyOf(Tuple.of(9, Arbitraries.of(Json.createValue(1), Json.createValue(2))),
                        Tuple.of(1, Arbitraries.just(Json.createValue(3)))),
                "expires_at", Arbitraries.frequencyOf(Tuple.of(9, Arbitraries.longs().between(NOW + 200_000, NOW + 3_000_000)),
                        Tuple.of(1, Arbitraries.longs().between(NOW - 1_000, NOW + 4_000_000)))
                        .map(l -> (JsonValue) Json.createValue(l)),
                "deadline_semantics", Arbitraries.of(Json.createValue("LATEST_START"),
                        Json.createValue("LATEST_USEFUL_COMPLETION")),
                "min_execution_ms", Arbitraries.longs().between(0, 120_000).map(l -> (JsonValue) Json.createValue(l)),
                "subject", Arbitraries.strings().ofMinLength(1).ofMaxLength(300).map(s -> (JsonValue) Json.createValue(s)),
                "source_revision", Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(20)
                        .map(s -> (JsonValue) Json.createValue(s)),
                "payload", payloads.map(p -> (JsonValue) p)));
    }

    /**
     * An object with each named field present with a well-formed value (most often), with an
     * arbitrary JSON value instead, or absent.
     */
    private static Arbitrary<JsonObject> fields(Map<String, Arbitrary<JsonValue>> wellFormed) {
        List<String> names = new ArrayList<>(wellFormed.keySet());
        List<Arbitrary<Optional<JsonValue>>> values = new ArrayList<>();
        for (String name : names) {
            values.add(Arbitraries.frequencyOf(
                    Tuple.of(12, wellFormed.get(name).map(Optional::of)),
                    Tuple.of(1, JsonArbitraries.json().map(Optional::of)),
                    Tuple.of(1, Arbitraries.just(Optional.<JsonValue>empty()))));
        }
        return Combinators.combine(values).as(chosen -> {
            Map<String, JsonValue> object = new LinkedHashMap<>();
            for (int i = 0; i < names.size(); i++) {
                int index = i;
                chosen.get(i).ifPresent(v -> object.put(names.get(index), v));
            }
            JsonObjectBuilder builder = Json.createObjectBuilder();
            object.forEach(builder::add);
            return builder.build();
        });
    }

    @Provide
    Arbitrary<JsonObject> objects() {
        return Arbitraries.maps(Arbitraries.oneOf(Arbitraries.of("job_id", "workload", "schema_version", "expires_at",
                "payload", "subject"), Arbitraries.strings().ofMaxLength(10)), JsonArbitraries.json()).ofMaxSize(12)
                .map(map -> {
                    JsonObjectBuilder builder = Json.createObjectBuilder();
                    map.forEach(builder::add);
                    return builder.build();
                });
    }
}

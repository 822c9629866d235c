package io.lastcall.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import jakarta.json.Json;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/**
 * Property-based: whatever body a message on a work queue carries, the reference parser returns a
 * reference or throws {@link Reference.Malformed} with a message (the message is then quarantined
 * with that reason), never another exception; and a parsed reference written back parses to itself.
 */
class ReferencePropertiesTest {

    @Property(tries = 10_000)
    void everyBodyIsAReferenceOrMalformed(@ForAll("bodies") String body) throws Reference.Malformed {
        Reference reference;
        try {
            reference = Reference.parse(body);
        } catch (Reference.Malformed e) {
            Statistics.collect("malformed");
            assertFalse(e.getMessage() == null || e.getMessage().isBlank(), "a malformed body says why");
            return;
        }
        Statistics.collect("reference");
        assertEquals(reference, Reference.parse(reference.toJson()), "written back, it reads the same");
    }

    @Provide
    Arbitrary<String> bodies() {
        return Arbitraries.frequencyOf(
                Tuple.of(6, references()),
                Tuple.of(2, JsonArbitraries.json().map(JsonValue::toString)),
                Tuple.of(2, JsonArbitraries.strings()),
                Tuple.of(1, Arbitraries.integers().between(1, 100_000).map(depth -> "[".repeat(depth))),
                Tuple.of(1, Arbitraries.integers().between(1, 5_000).map(depth -> "{\"a\":".repeat(depth) + "1"
                        + "}".repeat(depth))),
                Tuple.of(1, references().map(r -> r.substring(0, r.length() / 2))));
    }

    /** A reference's JSON with each field well-formed (most often), replaced by arbitrary JSON, or absent. */
    private static Arbitrary<String> references() {
        Arbitrary<JsonValue> jobId = Arbitraries.strings().withChars("abcXYZ019._:@-").ofMinLength(1).ofMaxLength(130)
                .map(s -> (JsonValue) Json.createValue(s));
        Arbitrary<JsonValue> number = Arbitraries.longs().map(l -> (JsonValue) Json.createValue(l));
        return Combinators.combine(field(jobId), field(number), field(number), field(number), Arbitraries.of(true, false))
                .as((id, generation, expiresAt, schema, extra) -> {
                    JsonObjectBuilder o = Json.createObjectBuilder();
                    id.ifPresent(v -> o.add("job_id", v));
                    generation.ifPresent(v -> o.add("generation", v));
                    expiresAt.ifPresent(v -> o.add("expires_at", v));
                    schema.ifPresent(v -> o.add("schema_version", v));
                    if (extra) {
                        o.add("unexpected", "field");
                    }
                    return o.build().toString();
                });
    }

    private static Arbitrary<java.util.Optional<JsonValue>> field(Arbitrary<JsonValue> wellFormed) {
        return Arbitraries.frequencyOf(
                Tuple.of(10, wellFormed.map(java.util.Optional::of)),
                Tuple.of(1, JsonArbitraries.json().map(java.util.Optional::of)),
                Tuple.of(1, Arbitraries.just(java.util.Optional.<JsonValue>empty())));
    }
}

package io.lastcall.job;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;

/**
 * jqwik generators of arbitrary JSON, for the property tests of what producers and the broker
 * send. They draw from jqwik's seeded random source (a failure names the seed that replays it)
 * without jqwik's per-element shrinking, which made 10,000 tries of enormous strings take minutes.
 */
public final class JsonArbitraries {

    private static final List<String> ODD_NUMBERS = List.of("1e400", "-1e-400", "9223372036854775808",
            "-9223372036854775809", "0.5", "1.0", "123456789012345678901234567890.000001", "-0");
    private static final List<String> ODD_STRINGS = List.of("", " ", "\u0000", "\u202e", "\ud800", "LATEST_START",
            "incident-summary", "😀".repeat(100));

    private JsonArbitraries() {
    }

    /** Arbitrary JSON: scalars of every kind, containers nested up to 4 deep, now and then one chain 50-3,000 deep. */
    public static Arbitrary<JsonValue> json() {
        return Arbitraries.randomValue(random -> random.nextInt(50) == 0 ? deepArray(50 + random.nextInt(2_950))
                : json(random, 4));
    }

    /** Unicode of every kind (control characters, lone surrogates), empty, and now and then enormous. */
    public static Arbitrary<String> strings() {
        return Arbitraries.randomValue(JsonArbitraries::text);
    }

    public static JsonValue json(Random random, int depth) {
        switch (random.nextInt(depth <= 0 ? 6 : 8)) {
            case 0:
                return List.of(JsonValue.NULL, JsonValue.TRUE, JsonValue.FALSE).get(random.nextInt(3));
            case 1:
                return Json.createValue(random.nextLong());
            case 2:
                return Json.createValue(random.nextBoolean() ? random.nextDouble() * 1e6 : random.nextInt(1000));
            case 3:
                return random.nextBoolean() ? Json.createValue(new BigDecimal(ODD_NUMBERS.get(random.nextInt(ODD_NUMBERS.size()))))
                        : Json.createValue(new BigInteger(100, random).negate().add(new BigInteger(100, random)));
            case 4, 5:
                return Json.createValue(text(random));
            case 6: {
                JsonArrayBuilder array = Json.createArrayBuilder();
                for (int i = random.nextInt(5); i > 0; i--) {
                    array.add(json(random, depth - 1));
                }
                return array.build();
            }
            default: {
                JsonObjectBuilder object = Json.createObjectBuilder();
                for (int i = random.nextInt(5); i > 0; i--) {
                    object.add(text(random, 8), json(random, depth - 1));
                }
                return object.build();
            }
        }
    }

    public static String text(Random random) {
        int kind = random.nextInt(24);
        if (kind < 3) {
            return ODD_STRINGS.get(random.nextInt(ODD_STRINGS.size()));
        }
        if (kind == 3) {
            return String.valueOf((char) random.nextInt(0x10000)).repeat(1_000 + random.nextInt(199_000));
        }
        return text(random, 40);
    }

    /** Up to {@code max} characters of the basic plane: control characters and lone surrogates too. */
    public static String text(Random random, int max) {
        StringBuilder s = new StringBuilder();
        for (int i = random.nextInt(max + 1); i > 0; i--) {
            s.append((char) (random.nextInt(3) == 0 ? random.nextInt(0x10000) : 0x20 + random.nextInt(0x5f)));
        }
        return s.toString();
    }

    public static JsonValue deepArray(int depth) {
        JsonValue value = Json.createValue(depth);
        for (int i = 0; i < depth; i++) {
            value = Json.createArrayBuilder().add(value).build();
        }
        return value;
    }
}

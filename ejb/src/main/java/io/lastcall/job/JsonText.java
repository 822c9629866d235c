package io.lastcall.job;

import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.spi.JsonProvider;
import java.io.StringReader;

/**
 * JSON-P through one provider looked up once: {@code Json.createReader} and friends look the
 * provider up with a ServiceLoader on every call, which profiling showed on every submission,
 * delivery and answer (bench/, docs/bench.md).
 */
public final class JsonText {

    private static final JsonProvider PROVIDER = JsonProvider.provider();

    private JsonText() {
    }

    public static JsonReader reader(String text) {
        return PROVIDER.createReader(new StringReader(text));
    }

    public static JsonObjectBuilder objectBuilder() {
        return PROVIDER.createObjectBuilder();
    }
}

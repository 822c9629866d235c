package io.lastcall.web;

import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.StringReader;
import java.util.Optional;

/** A request body read as one JSON object, or empty if it is not one. */
final class JsonBody {

    private JsonBody() {
    }

    static Optional<JsonObject> object(String body) {
        try (JsonReader reader = Json.createReader(new StringReader(body == null ? "" : body))) {
            return Optional.of(reader.readObject());
        } catch (JsonException | IllegalStateException notAnObject) {
            return Optional.empty();
        }
    }
}

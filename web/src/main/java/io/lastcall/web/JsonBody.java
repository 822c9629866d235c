package io.lastcall.web;

import io.lastcall.job.JsonText;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.util.Optional;

/** A request body read as one JSON object, or empty if it is not one. */
final class JsonBody {

    private JsonBody() {
    }

    static Optional<JsonObject> object(String body) {
        try (JsonReader reader = JsonText.reader(body == null ? "" : body)) {
            return Optional.of(reader.readObject());
        } catch (RuntimeException notAnObject) {
            // JsonException, or the parser's own limits (Parsson throws a bare RuntimeException for
            // nesting deeper than 1,000): a 400, never a 500
            return Optional.empty();
        }
    }
}

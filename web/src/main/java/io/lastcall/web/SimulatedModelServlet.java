package io.lastcall.web;

import io.lastcall.policy.Settings;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import jakarta.json.JsonWriter;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A SIMULATED OpenAI-compatible model endpoint, so that lastcall shows real outcomes without a
 * provider: {@code POST /lastcall/simulated-model/v1/chat/completions} (a servlet outside the
 * protected {@code /api}, and outside lastcall's OpenAPI document). It waits
 * {@code lastcall.simulator.latency-ms} (or N ms for a model named {@code sim-slow-N}) and
 * answers with usage computed from the request (prompt: characters / 4; completion:
 * {@code min(max_tokens, lastcall.simulator.completion-tokens)}). It never calls anything.
 */
@WebServlet("/simulated-model/v1/chat/completions")
public class SimulatedModelServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    private static final Pattern SLOW = Pattern.compile("sim-slow-(\\d{1,6})");

    @Inject
    transient Settings settings;

    @Override
    protected void doPost(HttpServletRequest http, HttpServletResponse response) throws IOException {
        if (!settings.simulator().enabled()) {
            send(response, 404, error("the simulated model is disabled (lastcall.simulator.enabled)", "not_found"));
            return;
        }
        JsonObject request;
        try (JsonReader reader = Json.createReader(http.getInputStream())) {
            request = reader.readObject();
        } catch (RuntimeException e) {
            send(response, 400, error("not a JSON object", "invalid_request_error"));
            return;
        }
        try {
            send(response, 200, complete(request));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            send(response, 503, error("the server is stopping", "server_error"));
        }
    }

    private JsonObject complete(JsonObject request) throws InterruptedException {
        String model = request.getString("model", "sim");
        Matcher slow = SLOW.matcher(model);
        Thread.sleep(slow.matches() ? Long.parseLong(slow.group(1)) : settings.simulator().latencyMs());
        long promptChars = 0;
        if (request.get("messages") instanceof JsonArray messages) {
            for (JsonValue m : messages) {
                if (m instanceof JsonObject message) {
                    promptChars += message.getString("content", "").length();
                }
            }
        }
        long prompt = (promptChars + 3) / 4;
        long cap = settings.simulator().completionTokens();
        long completion = Math.min(request.getJsonNumber("max_tokens") == null ? cap
                : request.getJsonNumber("max_tokens").longValue(), cap);
        return Json.createObjectBuilder()
                .add("id", "chatcmpl-sim-" + UUID.randomUUID())
                .add("object", "chat.completion")
                .add("created", System.currentTimeMillis() / 1000)
                .add("model", model)
                .add("choices", Json.createArrayBuilder().add(Json.createObjectBuilder()
                        .add("index", 0)
                        .add("message", Json.createObjectBuilder().add("role", "assistant")
                                .add("content", "[simulated summary of " + promptChars + " characters]"))
                        .add("finish_reason", "stop")))
                .add("usage", Json.createObjectBuilder().add("prompt_tokens", prompt)
                        .add("completion_tokens", completion).add("total_tokens", prompt + completion))
                .build();
    }

    private static JsonObject error(String message, String type) {
        return Json.createObjectBuilder().add("error", Json.createObjectBuilder().add("message", message)
                .add("type", type)).build();
    }

    private static void send(HttpServletResponse response, int status, JsonObject body) throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        try (JsonWriter writer = Json.createWriter(response.getWriter())) {
            writer.writeObject(body);
        }
    }
}

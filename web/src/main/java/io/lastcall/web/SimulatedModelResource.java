package io.lastcall.web;

import io.lastcall.policy.Settings;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.StringReader;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.microprofile.openapi.annotations.Operation;

/**
 * A SIMULATED OpenAI-compatible model endpoint, so that lastcall shows real outcomes without a
 * provider: {@code POST /lastcall/simulated-model/v1/chat/completions} (its own JAX-RS
 * application, {@link SimulatorApi}, outside the protected {@code /api}). It waits
 * {@code lastcall.simulator.latency-ms} (or N ms for a model named {@code sim-slow-N}) and
 * answers with usage computed from the request (prompt: characters / 4; completion:
 * {@code min(max_tokens, lastcall.simulator.completion-tokens)}). It never calls anything.
 */
@RequestScoped
@Path("v1/chat/completions")
public class SimulatedModelResource {

    private static final Pattern SLOW = Pattern.compile("sim-slow-(\\d{1,6})");

    @Inject
    Settings settings;

    // not part of lastcall's API (and WildFly's OpenAPI would file it under /api)
    @Operation(hidden = true)
    @POST
    @Consumes(MediaType.WILDCARD)
    @Produces(MediaType.APPLICATION_JSON)
    public Response complete(String body) throws InterruptedException {
        if (!settings.simulator().enabled()) {
            return Response.status(404).entity(Json.createObjectBuilder().add("error", Json.createObjectBuilder()
                    .add("message", "the simulated model is disabled (lastcall.simulator.enabled)")
                    .add("type", "not_found")).build()).build();
        }
        JsonObject request;
        try (JsonReader reader = Json.createReader(new StringReader(body))) {
            request = reader.readObject();
        } catch (RuntimeException e) {
            return Response.status(400).entity(Json.createObjectBuilder().add("error", Json.createObjectBuilder()
                    .add("message", "not a JSON object").add("type", "invalid_request_error")).build()).build();
        }
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
        JsonObject answer = Json.createObjectBuilder()
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
        return Response.ok(answer).build();
    }
}

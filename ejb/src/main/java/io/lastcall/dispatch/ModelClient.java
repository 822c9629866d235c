package io.lastcall.dispatch;

import io.lastcall.job.DeadlineSemantics;
import io.lastcall.policy.Settings;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import java.io.IOException;
import java.io.StringReader;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;

/**
 * Speaks the OpenAI chat-completions API to {@code lastcall.model.base-url} (the {@code /v1}
 * root). The HTTP client runs on the container's ManagedExecutorService. Each request carries
 * the deadline ({@code X-Lastcall-Deadline}, epoch ms) and the attempt id as idempotency key.
 */
@ApplicationScoped
public class ModelClient {

    public static final String DEADLINE_HEADER = "X-Lastcall-Deadline";

    /** Who is calling, for the request headers. */
    public record Call(String jobId, String attemptId, long expiresAt, DeadlineSemantics semantics, long timeoutMs) {
    }

    @Resource
    ManagedExecutorService executor;

    @Inject
    Settings settings;

    private volatile HttpClient http;

    private HttpClient http() {
        HttpClient client = http;
        if (client == null) {
            synchronized (this) {
                if (http == null) {
                    http = HttpClient.newBuilder().executor(executor).connectTimeout(Duration.ofSeconds(5))
                            .version(HttpClient.Version.HTTP_1_1).build();
                }
                client = http;
            }
        }
        return client;
    }

    /**
     * Sends one request. {@code beforeSend} runs immediately before the request is handed to the
     * HTTP client (the check-to-handoff measurement ends there).
     */
    public ModelResult complete(String payload, Call call, Runnable beforeSend) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(settings.modelBaseUrl() + "/chat/completions"))
                .timeout(Duration.ofMillis(call.timeoutMs()))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .header(DEADLINE_HEADER, Long.toString(call.expiresAt()))
                .header("X-Lastcall-Deadline-Semantics", call.semantics().name())
                .header("X-Lastcall-Job-Id", call.jobId())
                .header("X-Lastcall-Attempt-Id", call.attemptId())
                .header("Idempotency-Key", call.attemptId())
                .POST(HttpRequest.BodyPublishers.ofString(payload));
        settings.modelApiKey().ifPresent(key -> request.header("Authorization", "Bearer " + key));
        HttpResponse<String> response;
        try {
            beforeSend.run();
            response = http().send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (HttpConnectTimeoutException | ConnectException e) {
            return ModelResult.failed(null, "not reached: " + e, true);
        } catch (HttpTimeoutException e) {
            return ModelResult.unknown("no response within " + call.timeoutMs() + " ms: " + e.getMessage());
        } catch (IOException e) {
            return ModelResult.unknown("connection failed after the request left: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ModelResult.unknown("interrupted while waiting for the response");
        }
        if (response.statusCode() / 100 != 2) {
            String body = response.body() == null ? "" : response.body();
            int status = response.statusCode();
            return ModelResult.failed(status, "HTTP " + status + ": " + body.substring(0, Math.min(300, body.length())),
                    status == 429 || status == 502 || status == 503 || status == 504);
        }
        return parse(response.statusCode(), response.body());
    }

    static ModelResult parse(int status, String body) {
        try (JsonReader reader = Json.createReader(new StringReader(body))) {
            JsonObject o = reader.readObject();
            Long prompt = null;
            Long completion = null;
            if (o.get("usage") instanceof JsonObject usage) {
                prompt = usage.get("prompt_tokens") instanceof JsonNumber n ? n.longValue() : null;
                completion = usage.get("completion_tokens") instanceof JsonNumber n ? n.longValue() : null;
            }
            String content = null;
            if (o.get("choices") instanceof JsonArray choices && !choices.isEmpty()
                    && choices.get(0) instanceof JsonObject choice && choice.get("message") instanceof JsonObject m
                    && m.get("content") instanceof JsonString s) {
                content = s.getString();
            }
            return ModelResult.completed(status, prompt, completion, content);
        } catch (RuntimeException e) {
            // it ran and was billed, but the answer is unreadable: keep it as completed without usage
            return ModelResult.completed(status, null, null, body == null ? null : body.substring(0,
                    Math.min(body.length(), 2_000)));
        }
    }
}

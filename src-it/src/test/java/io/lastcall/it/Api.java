package io.lastcall.it;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonStructure;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/** lastcall's REST API under test, over real HTTP. */
public final class Api {

    /** One row of GET /api/deliveries. */
    public record Delivery(String messageId, String queue, String body, boolean redelivered) {
    }

    public record Reply(int status, JsonStructure json) {
    }

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private Api() {
    }

    /** GET from the server's root (outside the application), e.g. the MicroProfile Health endpoint. */
    public static Reply serverGet(String path) {
        return getJson(ItConfig.baseUrl().substring(0, ItConfig.baseUrl().lastIndexOf('/')) + path);
    }

    /**
     * GET on the server's MicroProfile Health endpoint ({@code /health/ready}, {@code /health/live}):
     * Payara serves it on the HTTP port, WildFly on its management port.
     */
    public static Reply healthGet(String path) {
        return Server.wildfly() ? getJson("http://127.0.0.1:" + System.getProperty("lastcall.it.admin-port") + path)
                : serverGet(path);
    }

    private static Reply getJson(String url) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .header("Accept", "application/json").GET().build();
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            try (JsonReader reader = Json.createReader(new StringReader(response.body()))) {
                return new Reply(response.statusCode(), reader.read());
            }
        } catch (IOException e) {
            throw new IllegalStateException("GET " + url + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The status of one named check in a MicroProfile Health answer. */
    public static String check(Reply health, String name) {
        return health.json().asJsonObject().getJsonArray("checks").stream().map(JsonValue::asJsonObject)
                .filter(c -> c.getString("name").equals(name)).map(c -> c.getString("status")).findFirst()
                .orElse("MISSING");
    }

    /** GET as the operator (who may read everything). */
    public static Reply get(String path) {
        return send("GET", path, null, ItConfig.user("operator"));
    }

    /**
     * One request with JSON (or no) body as {@code user} (null: no credentials). The body of the
     * answer is parsed as JSON when it is JSON, else kept as a JSON string.
     */
    public static Reply send(String method, String path, String body, ItConfig.User user) {
        return sendTo(ItConfig.baseUrl(), method, path, body, user);
    }

    /** As {@link #send}, to the server at {@code baseUrl} (e.g. http://127.0.0.1:15180/lastcall). */
    public static Reply sendTo(String baseUrl, String method, String path, String body, ItConfig.User user) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(Duration.ofSeconds(30)).header("Accept", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        if (user != null) {
            request.header("Authorization", user.basic());
        }
        try {
            HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
            try (JsonReader reader = Json.createReader(new StringReader(response.body()))) {
                return new Reply(response.statusCode(), reader.read());
            } catch (RuntimeException notJson) {
                return new Reply(response.statusCode(), Json.createArrayBuilder().add(response.body()).build());
            }
        } catch (IOException e) {
            throw new IllegalStateException(method + " " + path + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Rows the application recorded for a queue, newest first. */
    public static List<Delivery> deliveries(String queue) {
        Reply reply = get("/api/deliveries?limit=10000&queue=" + URLEncoder.encode(queue, StandardCharsets.UTF_8));
        if (reply.status() != 200) {
            throw new IllegalStateException("GET /api/deliveries -> " + reply.status() + ": " + reply.json());
        }
        return reply.json().asJsonArray().stream().map(JsonValue::asJsonObject).map(Api::delivery).toList();
    }

    /** Rows for a queue whose body starts with the prefix. */
    public static List<Delivery> deliveries(String queue, String bodyPrefix) {
        return deliveries(queue).stream().filter(d -> d.body() != null && d.body().startsWith(bodyPrefix)).toList();
    }

    private static Delivery delivery(JsonObject o) {
        return new Delivery(o.getString("message_id"), o.getString("queue"),
                o.isNull("body") ? null : o.getString("body"), o.getBoolean("redelivered"));
    }
}

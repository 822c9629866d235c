package io.lastcall.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.lastcall.job.DeadlineSemantics;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The model client against a real HTTP server on loopback: connect, then write, then classify. */
class ModelClientConnectionTest {

    private HttpServer server;
    private final List<String> received = new CopyOnWriteArrayList<>();
    private final ModelClient client = new ModelClient();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 10);
        server.createContext("/v1/chat/completions", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            received.add(exchange.getRequestHeaders().getFirst("Idempotency-Key") + " " + body);
            int status = body.contains("\"status\"") ? Integer.parseInt(body.replaceAll(".*\"status\":(\\d+).*", "$1"))
                    : 200;
            byte[] answer = (body.contains("big") ? "x".repeat(10_000)
                    : "{\"choices\":[{\"message\":{\"content\":\"hi\"}}],\"usage\":{\"prompt_tokens\":3,"
                            + "\"completion_tokens\":2}}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer);
            }
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
        client.shutdown();
    }

    private String base() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    private ModelResult send(String payload) throws IOException {
        ModelClient.Call call = new ModelClient.Call("j", "attempt-1", 1L, DeadlineSemantics.LATEST_START, 5_000);
        try (ModelClient.Connection connection = client.connect(base(), 2_000)) {
            return connection.send(payload, call, null, Set.of(429), 4_096);
        }
    }

    @Test
    void connectingWritesNothingSendingWritesOnce() throws IOException {
        try (ModelClient.Connection connection = client.connect(base(), 2_000)) {
            assertEquals(List.of(), received, "connected, nothing written");
        }
        ModelResult result = send("{\"model\":\"m\"}");
        assertEquals(ModelResult.Kind.COMPLETED, result.kind());
        assertTrue(result.hasUsage());
        assertEquals(List.of("attempt-1 {\"model\":\"m\"}"), received);
    }

    @Test
    void onlyNotProcessedStatusesMayBeRetried() throws IOException {
        assertEquals(ModelResult.Kind.NOT_PROCESSED, send("{\"status\":429}").kind());
        assertEquals(ModelResult.Kind.HTTP_ERROR, send("{\"status\":504}").kind(), "a gateway error may have run");
        assertEquals(ModelResult.Kind.HTTP_ERROR, send("{\"status\":502}").kind());
    }

    @Test
    void anAnswerBeyondTheSizeBoundHasNoUsage() throws IOException {
        ModelResult result = send("{\"big\":true}");
        assertEquals(ModelResult.Kind.COMPLETED, result.kind());
        assertFalse(result.hasUsage(), "cut: its cost is the estimate");
    }

    @Test
    void aBackendNotListeningIsNotReached() throws IOException {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        assertThrows(IOException.class, () -> client.connect("http://127.0.0.1:" + closedPort + "/v1", 1_000));
    }
}

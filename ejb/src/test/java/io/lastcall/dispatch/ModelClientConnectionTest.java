package io.lastcall.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.lastcall.job.Deadline;
import io.lastcall.transport.PreparedRequest;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The model client against the JDK's HTTP server on loopback: connect, prepare, write, answer. */
class ModelClientConnectionTest {

    private HttpServer server;
    private final List<String> received = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final ModelClient client = new ModelClient(scheduler);

    @BeforeEach
    void start() throws IOException {
        client.start();
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 10);
        server.createContext("/v1/chat/completions", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            received.add(exchange.getRequestHeaders().getFirst("Idempotency-Key") + " " + body);
            int status = body.contains("\"status\"") ? Integer.parseInt(body.replaceAll(".*\"status\":(\\d+).*", "$1"))
                    : 200;
            byte[] answer = (body.contains("big") ? "x".repeat(10_000)
                    : "{\"choices\":[{\"message\":{\"content\":\"hi\\u0000\"}}],\"usage\":{\"prompt_tokens\":3,"
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
        scheduler.shutdownNow();
    }

    private String base() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    static ModelResult send(ModelClient client, String base, String payload) throws IOException {
        ModelClient.Call call = new ModelClient.Call("j", "attempt-1", Deadline.latestStart(1L), 5_000);
        try (ModelClient.Connection connection = client.connect(base, 2_000)) {
            PreparedRequest request = connection.prepare(payload, call, null);
            ModelClient.Sent sent = connection.write(request, System.nanoTime() + 1_000_000_000L,
                    System.currentTimeMillis() + 1_000, Clock.systemUTC());
            if (!sent.written()) {
                return null;
            }
            return connection.answer(Set.of(429), 4_096, 800, Clock.systemUTC());
        }
    }

    private ModelResult send(String payload) throws IOException {
        return send(client, base(), payload);
    }

    @Test
    void connectingAndPreparingWriteNothingWritingWritesOnce() throws IOException {
        try (ModelClient.Connection connection = client.connect(base(), 2_000)) {
            connection.prepare("{}", new ModelClient.Call("j", "a", Deadline.latestStart(1L), 5_000), "k");
            assertEquals(List.of(), received, "connected and prepared, nothing written");
        }
        ModelResult result = send("{\"model\":\"m\"}");
        assertEquals(ModelResult.Kind.COMPLETED, result.kind());
        assertTrue(result.hasUsage());
        assertEquals("hi\\u0000", result.content(), "U+0000 is stored escaped");
        assertEquals(List.of("attempt-1 {\"model\":\"m\"}"), received);
    }

    @Test
    void nothingIsWrittenPastTheAuthorizationByEitherClock() throws IOException {
        ModelClient.Call call = new ModelClient.Call("j", "a", Deadline.latestStart(1L), 5_000);
        try (ModelClient.Connection connection = client.connect(base(), 2_000)) {
            PreparedRequest request = connection.prepare("{}", call, null);
            assertFalse(connection.write(request, System.nanoTime() - 1, System.currentTimeMillis() + 1_000,
                    Clock.systemUTC()).written(), "monotonic clock past the authorization");
            assertFalse(connection.write(request, System.nanoTime() + 1_000_000_000L, System.currentTimeMillis() - 1,
                    Clock.systemUTC()).written(), "wall clock past it (the machine was suspended)");
        }
        assertEquals(List.of(), received);
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

package io.lastcall.it;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The model backend of the tests: a real OpenAI-compatible HTTP server on loopback
 * ({@code lastcall.it.spy-port}; the test domain's {@code lastcall.model.base-url} points here)
 * that records every request it receives before answering. The requested model chooses the
 * answer: {@code spy-ok} at once; {@code spy-delay-N} after N ms; {@code spy-status-N} with
 * status N; {@code spy-nousage} a 200 without {@code usage}. Usage is otherwise always 11 prompt
 * and 7 completion tokens. {@link #closing()} is a second spy that closes its connection after
 * each answer ({@code Connection: close}), as many servers and proxies do.
 */
public final class DispatchSpy {

    /** One request as it arrived. */
    public record Request(String jobId, String attemptId, String deadline, String idempotencyKey, String body,
            long receivedAt) {
    }

    public static final long PROMPT_TOKENS = 11;
    public static final long COMPLETION_TOKENS = 7;
    private static final Pattern MODEL = Pattern.compile("\"model\"\\s*:\\s*\"spy-(ok|delay|status|nousage)-?(\\d*)\"");

    private static DispatchSpy running;
    private static DispatchSpy closing;

    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final boolean closeEach;

    private DispatchSpy(int port, boolean closeEach) throws IOException {
        this.closeEach = closeEach;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 50);
        server.createContext("/v1/chat/completions", this::handle);
        server.setExecutor(threads);
        server.start();
    }

    /** The spy of this test JVM, started on first use and kept for the whole run. */
    public static synchronized DispatchSpy get() {
        if (running == null) {
            try {
                running = new DispatchSpy(Integer.parseInt(System.getProperty("lastcall.it.spy-port", "14890")), false);
                Gateway.start(); // the spy's gateway (it-domain.env, it-through-gateway.env)
            } catch (IOException e) {
                throw new IllegalStateException("cannot start the dispatch spy: " + e, e);
            }
        }
        return running;
    }

    /** The spy that closes after each answer (port 14892; workload it-close), started on first use. */
    public static synchronized DispatchSpy closing() {
        if (closing == null) {
            try {
                closing = new DispatchSpy(14892, true);
            } catch (IOException e) {
                throw new IllegalStateException("cannot start the closing dispatch spy: " + e, e);
            }
        }
        return closing;
    }

    /** Every request received so far. */
    public List<Request> requests() {
        return List.copyOf(requests);
    }

    public List<Request> requestsFor(String jobId) {
        return requests.stream().filter(r -> jobId.equals(r.jobId())).toList();
    }

    private void handle(HttpExchange exchange) throws IOException {
        long arrived = System.currentTimeMillis();
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        requests.add(new Request(exchange.getRequestHeaders().getFirst("X-Lastcall-Job-Id"),
                exchange.getRequestHeaders().getFirst("X-Lastcall-Attempt-Id"),
                exchange.getRequestHeaders().getFirst("X-Lastcall-Deadline"),
                exchange.getRequestHeaders().getFirst("Idempotency-Key"), body, arrived));
        Matcher m = MODEL.matcher(body);
        int status = 200;
        boolean usage = true;
        if (m.find()) {
            usage = !m.group(1).equals("nousage");
            if (m.group(1).equals("delay")) {
                Await.sleep(Long.parseLong(m.group(2)));
            } else if (m.group(1).equals("status")) {
                status = Integer.parseInt(m.group(2));
            }
        }
        byte[] answer = (status == 200
                ? "{\"id\":\"spy\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,\"message\":{\"role\":"
                        + "\"assistant\",\"content\":\"spy answer\"},\"finish_reason\":\"stop\"}]"
                        + (usage ? ",\"usage\":{\"prompt_tokens\":" + PROMPT_TOKENS + ",\"completion_tokens\":"
                                + COMPLETION_TOKENS + "}" : "") + "}"
                : "{\"error\":{\"message\":\"spy status " + status + "\"}}").getBytes(StandardCharsets.UTF_8);
        try {
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            if (closeEach) {
                exchange.getResponseHeaders().add("Connection", "close");
            }
            exchange.sendResponseHeaders(status, answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer);
            }
        } catch (IOException clientGone) {
            // the caller timed out; the request is recorded all the same
        } finally {
            exchange.close();
        }
    }
}

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The benchmark's model backend: an OpenAI-compatible chat-completions endpoint that answers
 * after the delay in the file given (0 = at once), with usage, and counts requests and the peak
 * of requests in progress at once. GET /stats → "requests peak"; POST /reset zeroes both.
 * Run: java bench/Backend.java PORT DELAY_FILE
 */
public class Backend {
    public static void main(String[] args) throws IOException {
        int port = Integer.parseInt(args[0]);
        Path delayFile = Path.of(args[1]);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        AtomicLong requests = new AtomicLong();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 4096);
        server.setExecutor(Executors.newCachedThreadPool());
        byte[] answer = ("{\"id\":\"bench\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,\"message\":"
                + "{\"role\":\"assistant\",\"content\":\"ok\"},\"finish_reason\":\"stop\"}],"
                + "\"usage\":{\"prompt_tokens\":11,\"completion_tokens\":7,\"total_tokens\":18}}")
                .getBytes(StandardCharsets.UTF_8);
        server.createContext("/v1/chat/completions", exchange -> {
            int now = running.incrementAndGet();
            peak.accumulateAndGet(now, Math::max);
            requests.incrementAndGet();
            try {
                exchange.getRequestBody().readAllBytes();
                long delay = Long.parseLong(Files.readString(delayFile).trim());
                if (delay > 0) {
                    Thread.sleep(delay);
                }
                exchange.getResponseHeaders().set("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, answer.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(answer);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                running.decrementAndGet();
                exchange.close();
            }
        });
        server.createContext("/stats", exchange -> {
            byte[] body = (requests.get() + " " + peak.get()).getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.createContext("/reset", exchange -> {
            requests.set(0);
            peak.set(running.get());
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        server.start();
    }
}

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The benchmark's model backend: an OpenAI-compatible chat-completions endpoint that answers
 * after the delay in the file given (0 = at once; {@code LO..HI/PERIOD} = a delay that moves from
 * LO ms up to HI ms and back every PERIOD ms, as a provider's latency drifts with its load), with usage. It counts requests, the peak of
 * requests in progress at once, requests that arrive after their job's deadline (X-Lastcall-Deadline;
 * must stay 0), and answers given before / after the deadline. POST /hold makes requests wait until
 * POST /release (an outage of the model). GET /stats → "requests peak stale useful late running";
 * POST /reset zeroes the counters.
 * Run: java bench/Backend.java PORT DELAY_FILE
 */
public class Backend {
    public static void main(String[] args) throws IOException {
        int port = Integer.parseInt(args[0]);
        Path delayFile = Path.of(args[1]);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        AtomicLong requests = new AtomicLong();
        AtomicLong stale = new AtomicLong();
        AtomicLong useful = new AtomicLong();
        AtomicLong late = new AtomicLong();
        AtomicReference<CountDownLatch> hold = new AtomicReference<>(new CountDownLatch(0));
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
            String arrivedDeadline = exchange.getRequestHeaders().getFirst("X-Lastcall-Deadline");
            if (arrivedDeadline != null && System.currentTimeMillis() > Long.parseLong(arrivedDeadline)) {
                stale.incrementAndGet(); // handed to the model after its deadline: must never happen
            }
            try {
                exchange.getRequestBody().readAllBytes();
                hold.get().await();
                long delay = delay(Files.readString(delayFile).trim());
                if (delay > 0) {
                    Thread.sleep(delay);
                }
                String deadline = exchange.getRequestHeaders().getFirst("X-Lastcall-Deadline");
                if (deadline != null) {
                    (System.currentTimeMillis() <= Long.parseLong(deadline) ? useful : late).incrementAndGet();
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
            byte[] body = (requests.get() + " " + peak.get() + " " + stale.get() + " " + useful.get() + " " + late.get()
                    + " " + running.get()).getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.createContext("/reset", exchange -> {
            exchange.getRequestBody().readAllBytes(); // else the kept-alive connection is reset
            requests.set(0);
            peak.set(running.get());
            stale.set(0);
            useful.set(0);
            late.set(0);
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        server.createContext("/hold", exchange -> {
            exchange.getRequestBody().readAllBytes(); // else the kept-alive connection is reset
            hold.set(new CountDownLatch(1));
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        server.createContext("/release", exchange -> {
            exchange.getRequestBody().readAllBytes(); // else the kept-alive connection is reset
            hold.get().countDown();
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        server.start();
    }

    /** The delay the file asks for now: a number, or LO..HI/PERIOD (a triangle wave between LO and HI). */
    static long delay(String spec) {
        if (!spec.contains("..")) {
            return Long.parseLong(spec);
        }
        String[] range = spec.split("/")[0].split("\\.\\.");
        long lo = Long.parseLong(range[0]);
        long hi = Long.parseLong(range[1]);
        long period = Long.parseLong(spec.split("/")[1]);
        double phase = (System.currentTimeMillis() % period) / (double) period;
        double up = phase < 0.5 ? phase * 2 : 2 - phase * 2;
        return Math.round(lo + (hi - lo) * up);
    }
}

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The benchmark's load, side by side in one run: raw RabbitMQ publish-with-confirms and
 * consume+ack beside lastcall's ingress (single and batch) and drain; calls in flight with a
 * 2 s model; check → wire latency. Writes the Markdown report given.
 * Run by bench/run: java -cp LIBS bench/Driver.java BASE_URL PASSWORD BACKEND_URL DELAY_FILE REPORT
 */
public class Driver {

    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    static String base;
    static String auth;
    static String viewerAuth;
    static String backend;
    static Path delayFile;
    static final List<String> rows = new ArrayList<>();
    static final List<String> notes = new ArrayList<>();

    public static void main(String[] args) throws Exception {
        base = args[0];
        auth = basic("submitter", args[1]);
        viewerAuth = basic("viewer", args[1]);
        backend = args[2];
        delayFile = Path.of(args[3]);
        Path report = Path.of(args[4]);
        Files.writeString(delayFile, "0");

        int size = envelope("size-probe", System.currentTimeMillis() + 600_000).getBytes(StandardCharsets.UTF_8).length;
        double rawPublish = rawPublish(20_000, 200, 120);
        double rawConsume = rawConsume(20_000, 64);
        double single = ingressSingle(2_000, 8);
        row("ingress, `POST /api/jobs`, 8 client threads", single, "raw persistent publish, 200 confirms outstanding",
                rawPublish);
        double batch = ingressBatch(20_000, 500, 2);
        row("ingress, `POST /api/jobs/batch` (500 a batch, 2 client threads)", batch,
                "raw persistent publish, 200 confirms outstanding", rawPublish);
        double drain = drain(10_000);
        row("drain, zero-latency model (16 consumers, 1,000 permits)", drain, "raw consume + ack, prefetch 64",
                rawConsume);
        long[] wire = checkToWire();
        rows.add("| check → wire under that drain: p50 / p99 / max | " + wire[0] + " / " + wire[1] + " / " + wire[2]
                + " ms | | | |");
        inFlight(2_000, 2_000);

        notes.add("Everything shares the machine's cores: Payara, PostgreSQL, RabbitMQ, the backend and this driver."
                + " The ingress figures are taken while the same jobs are being drained. Not measured yet:"
                + " outage recovery (10,000 queued, half stale) and EDF against FIFO at 2x overload.");
        String md = "# lastcall benchmark\n\n" + LocalDate.now() + ", " + Runtime.getRuntime().availableProcessors()
                + " cores, PostgreSQL, one Payara server, RabbitMQ on the same machine; `./bench/run`.\n"
                + "Envelope " + size + " bytes; raw messages 120 bytes (a reference's size).\n\n"
                + "| figure | lastcall | beside it | raw | lastcall / raw |\n|---|---|---|---|---|\n"
                + String.join("\n", rows) + "\n\n" + String.join("\n", notes) + "\n";
        Files.writeString(report, md);
        System.out.println(md);
    }

    static void row(String what, double lastcall, String beside, double raw) {
        rows.add(String.format(Locale.ROOT, "| %s | %.0f/s | %s | %.0f/s | %.2f |", what, lastcall, beside, raw,
                lastcall / raw));
    }

    // ---- raw RabbitMQ ----

    static ConnectionFactory factory() {
        ConnectionFactory f = new ConnectionFactory();
        f.setHost("127.0.0.1");
        return f;
    }

    static double rawPublish(int n, int outstanding, int bytes) throws Exception {
        try (Connection c = factory().newConnection("bench raw publish"); Channel ch = c.createChannel()) {
            ch.queueDelete("bench.raw");
            ch.queueDeclare("bench.raw", true, false, false, null);
            ch.confirmSelect();
            byte[] body = new byte[bytes];
            AMQP.BasicProperties persistent = new AMQP.BasicProperties.Builder().deliveryMode(2).build();
            long start = System.nanoTime();
            for (int i = 1; i <= n; i++) {
                ch.basicPublish("", "bench.raw", persistent, body);
                if (i % outstanding == 0) {
                    ch.waitForConfirmsOrDie(30_000);
                }
            }
            ch.waitForConfirmsOrDie(30_000);
            return rate(n, start);
        }
    }

    static double rawConsume(int n, int prefetch) throws Exception {
        try (Connection c = factory().newConnection("bench raw consume"); Channel ch = c.createChannel()) {
            ch.basicQos(prefetch);
            CountDownLatch done = new CountDownLatch(n);
            long start = System.nanoTime();
            ch.basicConsume("bench.raw", false, new DefaultConsumer(ch) {
                @Override
                public void handleDelivery(String tag, Envelope env, AMQP.BasicProperties p, byte[] b)
                        throws java.io.IOException {
                    getChannel().basicAck(env.getDeliveryTag(), false);
                    done.countDown();
                }
            });
            done.await(120, TimeUnit.SECONDS);
            double r = rate(n - done.getCount(), start);
            ch.queueDelete("bench.raw");
            return r;
        }
    }

    // ---- lastcall ----

    static String envelope(String id, long expiresAt) {
        return "{\"job_id\":\"" + id + "\",\"workload\":\"incident-summary\",\"schema_version\":1,\"expires_at\":"
                + expiresAt + ",\"deadline_semantics\":\"LATEST_START\",\"min_execution_ms\":0,\"subject\":\"B-" + id
                + "\",\"source_revision\":\"r1\",\"payload\":{\"model\":\"bench\",\"max_tokens\":16,"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"summarize the incident\"}]}}";
    }

    static double ingressSingle(int n, int threads) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        long start = System.nanoTime();
        List<Future<Integer>> sent = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            sent.add(pool.submit(() -> {
                int ok = 0;
                for (int i = 0; i < n / threads; i++) {
                    ok += post("/api/jobs", envelope(id(), System.currentTimeMillis() + 600_000)) == 201 ? 1 : 0;
                }
                return ok;
            }));
        }
        int ok = 0;
        for (Future<Integer> f : sent) {
            ok += f.get();
        }
        pool.shutdown();
        double r = rate(ok, start);
        awaitIdle();
        return r;
    }

    static double ingressBatch(int n, int batchSize, int threads) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        long start = System.nanoTime();
        List<Future<Integer>> sent = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            sent.add(pool.submit(() -> {
                int ok = 0;
                for (int b = 0; b < n / threads / batchSize; b++) {
                    ok += postBatch(batchSize, 600_000);
                }
                return ok;
            }));
        }
        int ok = 0;
        for (Future<Integer> f : sent) {
            ok += f.get();
        }
        pool.shutdown();
        double r = rate(ok, start);
        awaitIdle();
        return r;
    }

    /** A backlog submitted in batches as fast as ingress takes it; completions per second from first to last. */
    static double drain(int n) throws Exception {
        long before = terminal();
        long start = System.nanoTime();
        for (int b = 0; b < n / 500; b++) {
            postBatch(500, 600_000);
        }
        long target = before + n;
        while (terminal() < target) {
            Thread.sleep(200);
        }
        return rate(n, start);
    }

    /** check_to_wire_ms of the last 10,000 attempts (the drain's), from the ledger export. */
    static long[] checkToWire() throws Exception {
        String csv = get("/api/jobs/export?format=csv&order=newest&limit=1000&from="
                + (System.currentTimeMillis() - 600_000));
        String[] header = csv.lines().findFirst().orElse("").split(",");
        int col = List.of(header).indexOf("check_to_wire_ms");
        List<Long> values = new ArrayList<>();
        csv.lines().skip(1).forEach(line -> {
            String[] f = line.split(",", -1);
            if (col >= 0 && f.length > col && !f[col].isEmpty()) {
                values.add(Long.parseLong(f[col]));
            }
        });
        Collections.sort(values);
        if (values.isEmpty()) {
            return new long[] {-1, -1, -1};
        }
        return new long[] {values.get(values.size() / 2), values.get((int) Math.min(values.size() - 1,
                Math.ceil(values.size() * 0.99) - 1)), values.get(values.size() - 1)};
    }

    static void inFlight(int n, long callMs) throws Exception {
        Files.writeString(delayFile, Long.toString(callMs));
        HTTP.send(HttpRequest.newBuilder(URI.create(backend + "/reset")).POST(HttpRequest.BodyPublishers.noBody())
                .build(), HttpResponse.BodyHandlers.discarding());
        long before = terminal();
        long start = System.nanoTime();
        for (int b = 0; b < n / 500; b++) {
            postBatch(500, 600_000);
        }
        while (terminal() < before + n) {
            Thread.sleep(200);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        String[] stats = HTTP.send(HttpRequest.newBuilder(URI.create(backend + "/stats")).build(),
                HttpResponse.BodyHandlers.ofString()).body().split(" ");
        rows.add(String.format(Locale.ROOT, "| calls in flight: %,d jobs, %d s model, 1,000 permits, 16 consumers |"
                + " peak %s at once; all done in %.1f s | | | |", n, callMs / 1000, stats[1], seconds));
        Files.writeString(delayFile, "0");
    }

    // ---- HTTP ----

    static String id() {
        return "bench-" + UUID.randomUUID();
    }

    static int postBatch(int size, long life) throws Exception {
        StringBuilder body = new StringBuilder("{\"jobs\":[");
        long expiresAt = System.currentTimeMillis() + life;
        for (int i = 0; i < size; i++) {
            body.append(i == 0 ? "" : ",").append(envelope(id(), expiresAt));
        }
        HttpResponse<String> r = send("/api/jobs/batch", body.append("]}").toString());
        Matcher m = Pattern.compile("\"accepted\":(\\d+)").matcher(r.body());
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }

    static int post(String path, String body) throws Exception {
        return send(path, body).statusCode();
    }

    static HttpResponse<String> send(String path, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(120))
                .header("Authorization", auth).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    static String get(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(120))
                .header("Authorization", viewerAuth).build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    /** Jobs that reached an outcome, all workloads, from /api/stats. */
    static long terminal() throws Exception {
        Matcher m = Pattern.compile("\"terminal\":(\\d+)").matcher(get("/api/stats"));
        long sum = 0;
        while (m.find()) {
            sum += Long.parseLong(m.group(1));
        }
        return sum;
    }

    static void awaitIdle() throws Exception {
        long last = -1;
        while (true) {
            Matcher m = Pattern.compile("\"in_flight\":(\\d+)").matcher(get("/api/stats"));
            long inFlight = 0;
            while (m.find()) {
                inFlight += Long.parseLong(m.group(1));
            }
            if (inFlight == 0 || inFlight == last) {
                return;
            }
            last = inFlight;
            Thread.sleep(1_000);
        }
    }

    static double rate(long n, long startNanos) {
        return n / ((System.nanoTime() - startNanos) / 1e9);
    }

    static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }
}

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
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The benchmark's load, side by side in one run: raw RabbitMQ publish-with-confirms and
 * consume+ack beside lastcall's ingress (single and batch) and drain; calls in flight with a
 * 2 s model; check → wire latency. Writes the Markdown report given.
 * Run by bench/run: java -cp LIBS bench/Driver.java BASE_URL PASSWORD BACKEND_URL DELAY_FILE REPORT
 */
public class Driver {

    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build(); // as producers post: cleartext HTTP/2 stalled Grizzly
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
        if (args.length > 5 && args[5].equals("overload")) {
            overload(args[6], report);
            return;
        }
        if (args.length > 5 && args[5].equals("fairness")) {
            fairness(args[6], report);
            return;
        }
        if (args.length > 5 && args[5].equals("cost")) {
            cost(args[6], Long.parseLong(args[7]), args[8]);
            return;
        }
        if (args.length > 5 && args[5].equals("cost-report")) {
            writeCost(report, args[6], List.of(args).subList(7, args.length));
            return;
        }
        if (args.length > 5 && args[5].equals("admission")) {
            admission(args[6], report);
            return;
        }

        int size = envelope("size-probe", System.currentTimeMillis() + 600_000).getBytes(StandardCharsets.UTF_8).length;
        double rawPublish = rawPublish(20_000, 200, 120);
        double rawConsume = rawConsume(20_000, 64);
        ingressSingle(1_000, 8); // warm-up: the server was just deployed
        double single = ingressSingle(2_000, 8);
        row("ingress, `POST /api/jobs`, 8 client threads", single, "raw persistent publish, 200 confirms outstanding",
                rawPublish);
        double batch = ingressBatch(20_000, 500, 2);
        row("ingress, `POST /api/jobs/batch` (500 a batch, 2 client threads)", batch,
                "raw persistent publish, 200 confirms outstanding", rawPublish);
        double drain = drain(10_000);
        row("drain, zero-latency model (16 consumers, 1,000 permits)", drain, "raw consume + ack, prefetch 64",
                rawConsume);
        long[] wire = checkToLastByte();
        rows.add("| check → wire under that drain: p50 / p99 / max | " + wire[0] + " / " + wire[1] + " / " + wire[2]
                + " ms | | | |");
        inFlight(2_000, 2_000);
        outageRecovery();

        notes.add("Everything shares the machine's cores: Payara, PostgreSQL, RabbitMQ, the backend and this driver."
                + " The ingress figures are taken while the same jobs are being drained. What limits them, and what"
                + " was measured while changing it: [performance.md](performance.md).");
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
        return envelope(id, "incident-summary", expiresAt, "LATEST_START", 0);
    }

    static String envelope(String id, String workload, long expiresAt, String semantics, long minExecutionMs) {
        return envelope(id, workload, expiresAt, semantics, minExecutionMs, "bench");
    }

    static String envelope(String id, String workload, long expiresAt, String semantics, long minExecutionMs,
            String model) {
        return "{\"job_id\":\"" + id + "\",\"workload\":\"" + workload + "\",\"schema_version\":1,\"expires_at\":"
                + expiresAt + ",\"deadline_semantics\":\"" + semantics + "\",\"min_execution_ms\":" + minExecutionMs
                + ",\"subject\":\"B-" + id
                + "\",\"source_revision\":\"r1\",\"payload\":{\"model\":\"" + model + "\",\"max_tokens\":16,"
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
        return drained(n).rate();
    }

    /** A drain's rate, and the rate at which its batches were accepted (one client thread, while they drain). */
    record Drain(double rate, double batchIngress) {
    }

    static Drain drained(int n) throws Exception {
        long before = terminal();
        long start = System.nanoTime();
        for (int b = 0; b < n / 500; b++) {
            postBatch(500, 600_000);
        }
        double batchIngress = rate(n, start);
        long target = before + n;
        while (terminal() < target) {
            Thread.sleep(200);
        }
        return new Drain(rate(n, start), batchIngress);
    }

    /** check_to_last_byte_ms of the last 10,000 attempts (the drain's), from the ledger export. */
    static long[] checkToLastByte() throws Exception {
        String csv = get("/api/jobs/export?format=csv&order=newest&limit=1000&from="
                + (System.currentTimeMillis() - 600_000));
        String[] header = csv.lines().findFirst().orElse("").split(",");
        int col = List.of(header).indexOf("check_to_last_byte_ms");
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
        long[] stats = backendStats();
        rows.add(String.format(Locale.ROOT, "| calls in flight: %,d jobs, %d s model, 1,000 permits, 16 consumers |"
                + " peak %s at once; all done in %.1f s | | | |", n, callMs / 1000, stats[1], seconds));
        Files.writeString(delayFile, "0");
    }

    /**
     * Outage recovery: the model holds every permit (1,000 calls that do not answer), a backlog
     * builds up behind it, half of it with deadlines that pass during the outage; then the model
     * answers again. Measured twice in the same way: 5,000 fresh jobs alone, and 5,000 fresh with
     * 5,000 stale interleaved in the same queue (workload alert-digest; the stale ones' ids start
     * "stale-" and must never reach the model). The rate is the fresh jobs over the time from the
     * release until every job of the backlog has ended.
     */
    static void outageRecovery() throws Exception {
        double[] freshOnly = outage(0, 5_000);
        double[] mixed = outage(5_000, 5_000);
        rows.add(String.format(Locale.ROOT, "| outage recovery: 10,000 queued behind a model outage, 5,000 stale"
                + " | fresh drain %.0f/s; calls that reached the model after their deadline: %d | the same 5,000 fresh"
                + " without the stale |"
                + " %.0f/s | %.2f |", mixed[0], (long) mixed[1], freshOnly[0], mixed[0] / freshOnly[0]));
    }

    /** Returns {fresh jobs drained per second after the release, model calls for stale jobs}. */
    static double[] outage(int stale, int fresh) throws Exception {
        backend("/reset");
        backend("/hold");
        for (int b = 0; b < 2; b++) {
            postBatch(500, 600_000);
        }
        // every permit held by a call the model does not answer (a few may be going round a retry tier)
        long seen = -1;
        for (int stable = 0; backendStats()[5] < 1_000 && stable < 25; ) {
            long running = backendStats()[5];
            stable = running == seen ? stable + 1 : 0;
            seen = running;
            Thread.sleep(200);
        }
        long before = terminal("alert-digest");
        long lastStaleDeadline = 0;
        int perBatch = 500;
        int batches = (stale + fresh) / perBatch;
        for (int b = 0; b < batches; b++) {
            StringBuilder body = new StringBuilder("{\"jobs\":[");
            long now = System.currentTimeMillis();
            for (int i = 0; i < perBatch; i++) {
                boolean isStale = stale > 0 && i % 2 == 0;
                String env = isStale
                        ? envelope("stale-" + UUID.randomUUID(), "alert-digest", now + 20_000, "LATEST_START", 0)
                        : envelope(id(), "alert-digest", now + 600_000, "LATEST_START", 0);
                body.append(i == 0 ? "" : ",").append(env);
            }
            send("/api/jobs/batch", body.append("]}").toString());
            lastStaleDeadline = stale > 0 ? now + 20_000 : 0;
        }
        while (System.currentTimeMillis() < lastStaleDeadline + 2_000) {
            Thread.sleep(200);
        }
        long start = System.nanoTime();
        backend("/release");
        while (terminal("alert-digest") < before + stale + fresh) {
            Thread.sleep(100);
        }
        double rate = rate(fresh, start);
        awaitIdle();
        return new double[] {rate, backendStats()[2]};
    }

    /** The dispatch orders the overload bursts compare, in the order bench/run runs them. */
    static final String[] ORDERS = {"fifo", "edf-narrow", "edf"};

    /**
     * Dispatch order under overload (run once per order, on a server restarted with 20 permits,
     * 16 consumers of prefetch 64): two bursts against a 500 ms model (20 permits answer 40 jobs
     * a second), each latest useful completion with 500 ms minimum execution, submitted shuffled.
     * "two tiers": 400 jobs, 200 due in 6 s and 200 in 30 s. "spread": 440 jobs due evenly from
     * 1 s to 12 s - what the permits finish by the last deadline, if in deadline order. Useful
     * completions are answers the model gave before the job's deadline. The last order appends
     * every run and the ratios to the report.
     */
    static void overload(String order, Path report) throws Exception {
        warmUpThenDelay(4, "500");
        java.util.Random random = new java.util.Random(42);
        long now = System.currentTimeMillis();
        List<String> twoTiers = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            twoTiers.add(envelope(id(), "incident-summary", now + (i < 200 ? 6_000 : 30_000),
                    "LATEST_USEFUL_COMPLETION", 500));
        }
        long[] tiers = burst(twoTiers, random);
        backend("/reset");
        now = System.currentTimeMillis();
        List<String> spread = new ArrayList<>();
        for (int i = 0; i < 440; i++) {
            spread.add(envelope(id(), "incident-summary", now + 1_000 + 11_000L * i / 440,
                    "LATEST_USEFUL_COMPLETION", 500));
        }
        long[] even = burst(spread, random);
        Files.writeString(delayFile, "0");
        Files.writeString(Path.of("bench/target/overload-" + order + ".txt"),
                tiers[0] + " " + tiers[1] + " " + even[0] + " " + even[1]);
        if (!order.equals(ORDERS[ORDERS.length - 1])) {
            return;
        }
        long[][] runs = new long[ORDERS.length][];
        for (int i = 0; i < ORDERS.length; i++) {
            runs[i] = java.util.Arrays.stream(Files.readString(Path.of("bench/target/overload-" + ORDERS[i] + ".txt"))
                    .trim().split(" ")).mapToLong(Long::parseLong).toArray();
        }
        StringBuilder table = new StringBuilder("| burst | order | answered before the deadline (useful) | answered late"
                + " | never sent (expired) |\n|---|---|---|---|---|\n");
        String[] bursts = {"two tiers (400)", "spread (440)"};
        int[] sizes = {400, 440};
        for (int b = 0; b < bursts.length; b++) {
            for (int i = 0; i < ORDERS.length; i++) {
                long useful = runs[i][2 * b];
                long late = runs[i][2 * b + 1];
                table.append(String.format(Locale.ROOT, "| %s | %s | %d | %d | %d |%n", bursts[b], ORDERS[i],
                        useful, late, sizes[b] - useful - late));
            }
        }
        StringBuilder ratios = new StringBuilder();
        for (int b = 0; b < bursts.length; b++) {
            ratios.append(String.format(Locale.ROOT, "%n%s: useful completions, edf / fifo %.2f, edf-narrow / fifo %.2f",
                    bursts[b], runs[2][2 * b] / (double) Math.max(1, runs[0][2 * b]),
                    runs[1][2 * b] / (double) Math.max(1, runs[0][2 * b])));
        }
        replaceSection(report, "\n## Earliest deadline first", "\n## Earliest deadline first over the backlog, against FIFO\n\n"
                + java.time.LocalDate.now() + ", `./bench/run edf` (this section only). A server restarted for each"
                + " order with 20 permits and 16 worker consumers of prefetch 64 (a window of 1,024 deliveries),"
                + " warmed up with 2,000 jobs, then two bursts against a 500 ms model (40 answers a second), every"
                + " job latest useful completion with 500 ms minimum execution, submitted shuffled in one batch."
                + " *Two tiers*: 400 jobs, 200 due in 6 s and 200 in 30 s (about twice what the permits finish"
                + " before the short deadlines). *Spread*: 440 jobs due evenly from 1 s to 12 s (what the permits"
                + " finish by the last deadline, in deadline order). Orders: `fifo` (`lastcall.dispatch.order=fifo`,"
                + " `lastcall.worker.order-by=arrival`); `edf-narrow` (earliest deadline first among the jobs"
                + " waiting for a permit only: `order-by=arrival`, as releases before this one did); `edf` (the"
                + " adapter hands its whole window to the consumers earliest expiry first, the default).\n\n"
                + table + ratios + "\n");
    }

    /** One burst in one batch; waits until every job of it ended. Returns {useful, late} from the model's count. */
    static long[] burst(List<String> envelopes, java.util.Random random) throws Exception {
        Collections.shuffle(envelopes, random);
        long before = terminal();
        send("/api/jobs/batch", "{\"jobs\":[" + String.join(",", envelopes) + "]}");
        long giveUp = System.currentTimeMillis() + 180_000;
        while (terminal() < before + envelopes.size() && System.currentTimeMillis() < giveUp) {
            Thread.sleep(200);
        }
        awaitIdle();
        long[] stats = backendStats();
        return new long[] {stats[3], stats[4]};
    }

    /** The share settings the fairness runs compare, in the order bench/run runs them. */
    static final String[] SHARE_SETTINGS = {"edf", "fair"};
    static final String[] TENANTS = {"big", "small-1", "small-2"};
    static final int[] ALONE = {0, 60, 60};
    static final int[] FLOOD = {600, 60, 60};

    /**
     * Fair shares between tenants (run once per setting, on a server restarted with 20 permits,
     * 16 consumers of prefetch 64 and envelope tenants allowed): against a 500 ms model, every job
     * latest useful completion with 500 ms minimum execution, each tenant's jobs due evenly from 1 s
     * to 12 s, shuffled in one batch. "alone": the two small tenants, 60 jobs each (well within what
     * the permits finish). "flood": the same, and a third tenant sending 10 times as many (600), so
     * the batch is about twice what the permits finish by the last deadline. On-time completions per
     * tenant come from the ledger (a search of the run's COMPLETED / ON_TIME jobs). The last setting
     * writes both side by side, with Jain's index, into the report.
     */
    static void fairness(String setting, Path report) throws Exception {
        warmUpThenDelay(4, "500");
        java.util.Random random = new java.util.Random(11);
        long[] alone = tenantBurst(ALONE, random);
        backend("/reset");
        long[] flood = tenantBurst(FLOOD, random);
        Files.writeString(delayFile, "0");
        Files.writeString(Path.of("bench/target/fairness-" + setting + ".txt"),
                alone[1] + " " + alone[2] + " " + flood[0] + " " + flood[1] + " " + flood[2]);
        if (!setting.equals(SHARE_SETTINGS[SHARE_SETTINGS.length - 1])) {
            return;
        }
        StringBuilder table = new StringBuilder("| setting | alone: small-1, small-2 on time (of 60 each)"
                + " | flood: big on time (of 600) | small-1 (of 60) | small-2 (of 60) | Jain's index (on time"
                + " against the max-min fair share) | small tenants' on-time rate, flood against alone |\n"
                + "|---|---|---|---|---|---|---|\n");
        for (String s : SHARE_SETTINGS) {
            long[] r = java.util.Arrays.stream(Files.readString(Path.of("bench/target/fairness-" + s + ".txt")).trim()
                    .split(" ")).mapToLong(Long::parseLong).toArray();
            long[] onTime = {r[2], r[3], r[4]};
            table.append(String.format(Locale.ROOT, "| %s | %d, %d | %d | %d | %d | %.3f | %.2f |%n", s, r[0], r[1],
                    r[2], r[3], r[4], jain(onTime, FLOOD), (r[3] + r[4]) / (double) Math.max(1, r[0] + r[1])));
        }
        replaceSection(report, "\n## Fair shares", "\n## Fair shares between tenants\n\n"
                + LocalDate.now() + ", `./bench/run fairness` (this section only). A server restarted for each setting"
                + " with 20 permits and 16 worker consumers of prefetch 64, envelope tenants allowed, warmed up with"
                + " 2,000 jobs; a 500 ms model (about 35 answers a second); every job latest useful completion with"
                + " 500 ms minimum execution, each tenant's jobs due evenly from 1 s to 12 s, shuffled in one batch."
                + " *Alone*: the two small tenants, 60 jobs each. *Flood*: the same and a third tenant with 600, about"
                + " twice what the permits finish by the last deadline. Settings: `edf` (`lastcall.worker.share-by=none`:"
                + " the window in deadline order only); `fair` (the default: tenants take turns at the window, each"
                + " in deadline order). Jain's index is taken over each tenant's on-time completions divided by its"
                + " max-min fair share of all on-time completions of the run (a small tenant's fair share is what it"
                + " sent, when that is less than an equal split; 1.0 is perfectly fair).\n\n" + table);
    }

    /** One batch of each tenant's jobs, due evenly from 1 s to 12 s; on-time completions per tenant, from the ledger. */
    static long[] tenantBurst(int[] counts, java.util.Random random) throws Exception {
        long start = System.currentTimeMillis();
        List<String> envelopes = new ArrayList<>();
        for (int t = 0; t < TENANTS.length; t++) {
            for (int i = 0; i < counts[t]; i++) {
                envelopes.add("{\"tenant\":\"" + TENANTS[t] + "\"," + envelope(id(), "incident-summary",
                        start + 1_000 + 11_000L * i / counts[t], "LATEST_USEFUL_COMPLETION", 500).substring(1));
            }
        }
        burst(envelopes, random);
        String onTime = get("/api/jobs?workload=incident-summary&outcome=COMPLETED&reason=ON_TIME&limit=1000&from=" + start);
        long[] perTenant = new long[TENANTS.length];
        for (int t = 0; t < TENANTS.length; t++) {
            perTenant[t] = Pattern.compile(Pattern.quote("\"tenant\":\"" + TENANTS[t] + "\"")).matcher(onTime).results()
                    .count();
        }
        return perTenant;
    }

    /**
     * Jain's index of x_i = got_i / fair_i, where fair_i is tenant i's max-min fair share of
     * everything the tenants got together (water-filling over their demands).
     */
    static double jain(long[] got, int[] demand) {
        long total = java.util.Arrays.stream(got).sum();
        Integer[] byDemand = {0, 1, 2};
        java.util.Arrays.sort(byDemand, java.util.Comparator.comparingInt(i -> demand[i]));
        double[] fair = new double[got.length];
        double left = total;
        for (int k = 0; k < byDemand.length; k++) {
            int i = byDemand[k];
            fair[i] = Math.min(demand[i], left / (byDemand.length - k));
            left -= fair[i];
        }
        double sum = 0;
        double squares = 0;
        for (int i = 0; i < got.length; i++) {
            double x = fair[i] == 0 ? 1 : got[i] / fair[i];
            sum += x;
            squares += x * x;
        }
        return sum * sum / (got.length * squares);
    }

    static final String[] ADMISSION_MODES = {"off", "shadow", "on"};

    /**
     * Predictive admission, once per mode (bench/run restarts the server with 20 permits and
     * lastcall.admission.predictive set): for 120 s, 24 jobs a second (6 every 250 ms), each
     * latest useful completion with 1.5 to 5 s to live, against a model whose latency moves from
     * 0.5 s to 3 s and back every 60 s: about twice what 20 permits answer (20 / 1.75 s). The model
     * name is the run's own, so the warm-up's answers are not in its latency class. Each run's
     * figures come from /api/stats (the workload's outcomes and its admission figures) and the
     * backend's count of answers before and after the deadline; the last run (on) writes the three
     * side by side and the ratios into the report.
     */
    static void admission(String mode, Path report) throws Exception {
        warmUpThenDelay(2, "500..3000/60000");
        String before = workloadJson("incident-summary");
        java.util.Random random = new java.util.Random(7);
        long start = System.currentTimeMillis();
        int sent = 0;
        for (long tick = start; tick < start + 120_000; tick += 250) {
            Thread.sleep(Math.max(0, tick - System.currentTimeMillis()));
            List<String> batch = new ArrayList<>();
            for (int k = 0; k < 6; k++) {
                batch.add(envelope(id(), "incident-summary", System.currentTimeMillis() + 1_500 + random.nextInt(3_500),
                        "LATEST_USEFUL_COMPLETION", 100, "bench-moving"));
            }
            send("/api/jobs/batch", "{\"jobs\":[" + String.join(",", batch) + "]}");
            sent += batch.size();
        }
        long giveUp = System.currentTimeMillis() + 90_000;
        while (number(workloadJson("incident-summary"), "terminal") < number(before, "terminal") + sent
                && System.currentTimeMillis() < giveUp) {
            Thread.sleep(500);
        }
        long[] answers = backendStats();
        Files.writeString(delayFile, "0");
        String after = workloadJson("incident-summary");
        String[] keys = {"\"COMPLETED/ON_TIME\"", "\"COMPLETED/LATE\"", "late_spend", "refused", "refused_estimate",
            "predicted_late", "false_refusals", "predicted_late_answered_late", "predicted_late_spend"};
        StringBuilder figures = new StringBuilder(sent + " " + answers[3] + " " + answers[4]);
        for (String key : keys) {
            figures.append(' ').append(String.format(Locale.ROOT, "%.6f", number(after, key) - number(before, key)));
        }
        Files.writeString(Path.of("bench/target/admission-" + mode + ".txt"), figures.toString());
        if (mode.equals("on")) {
            writeAdmission(report);
        }
    }

    /** The three admission runs side by side, and the ratios the issue asks for, in place of the report's old section. */
    static void writeAdmission(Path report) throws Exception {
        double[][] runs = new double[3][];
        for (int i = 0; i < 3; i++) {
            String[] f = Files.readString(Path.of("bench/target/admission-" + ADMISSION_MODES[i] + ".txt")).trim()
                    .split(" ");
            runs[i] = java.util.Arrays.stream(f).mapToDouble(Double::parseDouble).toArray();
        }
        StringBuilder s = new StringBuilder("\n## Predictive admission\n\n" + LocalDate.now()
                + ", `./bench/run admission` (this section only; the sections above may be from an earlier run)."
                + " Once per `lastcall.admission.predictive` mode, on a server restarted with 20 permits: for 120 s, 24"
                + " jobs a second, each latest useful completion with 1.5 to 5 s to live (100 ms minimum execution),"
                + " against a model whose latency moves from 0.5 s to 3 s and back every 60 s - about twice what the"
                + " permits answer. Money is the jobs' actual spend (`late_spend`: spend on answers that came after"
                + " the deadline) and, for refusals, their estimates.\n\n"
                + "| mode | jobs | answered on time (model's count / ledger) | answered late (model / ledger) |"
                + " spent on late answers | refused as predicted late | their estimates (not spent) |"
                + " forecast late | of which on time (false refusals) | of which late |\n"
                + "|---|---|---|---|---|---|---|---|---|---|\n");
        for (int i = 0; i < 3; i++) {
            double[] r = runs[i];
            s.append(String.format(Locale.ROOT, "| %s | %.0f | %.0f / %.0f | %.0f / %.0f | %.6f | %.0f | %.6f | %.0f | %.0f | %.0f |%n",
                    ADMISSION_MODES[i], r[0], r[1], r[3], r[2], r[4], r[5], r[6], r[7], r[8], r[9], r[10]));
        }
        double[] off = runs[0];
        double[] shadow = runs[1];
        double[] on = runs[2];
        s.append(String.format(Locale.ROOT, "%nSpend on late answers, on against off: %.2f (a fall of %.0f %%)."
                        + " Answers on time, on against off: %.2f. False refusals in shadow: %.0f of %.0f forecast late"
                        + " (%.1f %%), %.1f %% of its jobs.%n",
                on[5] / Math.max(1e-9, off[5]), 100 * (1 - on[5] / Math.max(1e-9, off[5])), on[3] / Math.max(1, off[3]),
                shadow[9], shadow[8], 100 * shadow[9] / Math.max(1, shadow[8]), 100 * shadow[9] / Math.max(1, shadow[0])));
        replaceSection(report, "\n## Predictive admission\n", s.toString());
    }

    // ---- cost per job ----

    /**
     * What a completed job costs the server (bench/run cost restarts it with the EAR of each build
     * it measures): CPU seconds of the server's process per 1,000 jobs, from /proc, and
     * PostgreSQL's transactions per job, from pg_stat_database, for a backlog of 10,000 submitted
     * in batches and drained against a zero-latency model, and for 2,000 single submissions
     * (8 client threads) until they completed. Figures go to bench/target/cost-LABEL.txt:
     * drain/s, CPU s per 1,000 drained, transactions per drained job, single/s, CPU s per 1,000
     * single, transactions per single job, and so on (see the format below). Both phases run twice:
     * first on the just-deployed server (the cold round, its JIT compiling the paths as it goes),
     * then again (the measured round).
     */
    static void cost(String label, long pid, String database) throws Exception {
        // the server was just deployed: a whole round of what is measured first, so that the JIT has
        // compiled both paths and the pools are filled (in the first round of a fresh server the
        // compiler threads took about 25 s of CPU, more than the drain of 10,000 itself); its figures
        // are kept beside the measured round's
        double[] coldDrain = costOf(pid, database, 10_000, () -> drain(10_000));
        double[] coldSingle = costOf(pid, database, 2_000, () -> singleDrained(2_000));
        // the single path compiles for longer than the drain's: four rounds of 2,000 on one server went
        // 10.8 -> 9.2 -> 7.1 -> 4.9 CPU s per 1,000, the JIT's share falling 3.0 -> 0.9 (docs/performance.md)
        singleDrained(6_000);
        awaitIdle();
        String beforeDrain = get("/metrics");
        long drainFrom = System.currentTimeMillis();
        double[] batchIngress = new double[1];
        double[] drained = costOf(pid, database, 10_000, () -> {
            Drain d = drained(10_000);
            batchIngress[0] = d.batchIngress();
            return d.rate();
        });
        long drainTo = System.currentTimeMillis();
        String afterDrain = get("/metrics");
        double[] single = costOf(pid, database, 2_000, () -> singleDrained(2_000));
        String afterSingle = get("/metrics");
        String figures = String.format(Locale.ROOT, "%.1f %.3f %.2f %.1f %.3f %.2f %s %.1f %.1f %.1f %.1f %.1f %.3f %.3f"
                + " %.1f %.3f %.3f %.1f %.3f %.3f",
                drained[0], drained[1], drained[2], single[0], single[1], single[2],
                checkToLastByteMs(database, drainFrom, drainTo), meanGroup(beforeDrain, afterDrain, "receipt-and-gate"),
                meanGroup(beforeDrain, afterDrain, "handoff"), meanGroup(beforeDrain, afterDrain, "settlement"),
                meanGroup(afterDrain, afterSingle, "submission"), batchIngress[0], drained[3], single[3],
                coldDrain[0], coldDrain[1], coldDrain[3], coldSingle[0], coldSingle[1], coldSingle[3]);
        Files.writeString(Path.of("bench/target/cost-" + label + ".txt"), figures);
        System.out.println("cost " + label + ": " + figures);
    }

    /** Single submissions from 8 client threads, at the rate they were accepted; returns once all have ended. */
    static double singleDrained(int n) throws Exception {
        long before = terminal();
        double rate = ingressSingle(n, 8);
        while (terminal() < before + n) {
            Thread.sleep(200);
        }
        return rate;
    }

    /**
     * Check → last byte of the attempts claimed between two instants, p50 and p99 in ms, as the
     * ledger recorded each one (attempt.check_to_last_byte_ms; exact, where /metrics has buckets).
     */
    static String checkToLastByteMs(String database, long from, long to) throws Exception {
        return run("psql", "-h", "127.0.0.1", "-U", "lastcall", "-d", database, "-qtA", "-F", " ", "-c",
                "select percentile_disc(0.5) within group (order by check_to_last_byte_ms),"
                        + " percentile_disc(0.99) within group (order by check_to_last_byte_ms)"
                        + " from lc_attempt where check_to_last_byte_ms is not null"
                        + " and claimed_at between " + from + " and " + to).trim();
    }

    /** Items per transaction of one group commit between two scrapes of /metrics; NaN where the build has none. */
    static double meanGroup(String before, String after, String group) {
        double items = sumByLabel(after, "lastcall_group_size_sum", "group").getOrDefault(group, 0.0)
                - sumByLabel(before, "lastcall_group_size_sum", "group").getOrDefault(group, 0.0);
        double groups = sumByLabel(after, "lastcall_group_size_count", "group").getOrDefault(group, 0.0)
                - sumByLabel(before, "lastcall_group_size_count", "group").getOrDefault(group, 0.0);
        return groups > 0 ? items / groups : Double.NaN;
    }

    /** A metric's samples in Prometheus text, summed per value of one of their labels. */
    static Map<String, Double> sumByLabel(String text, String name, String label) {
        Map<String, Double> sums = new java.util.HashMap<>();
        Matcher line = Pattern.compile("^" + Pattern.quote(name) + "\\{([^}]*)\\} (\\S+)$", Pattern.MULTILINE)
                .matcher(text);
        while (line.find()) {
            Matcher value = Pattern.compile("(?:^|,)" + label + "=\"([^\"]*)\"").matcher(line.group(1));
            if (value.find()) {
                sums.merge(value.group(1), Double.parseDouble(line.group(2)), Double::sum);
            }
        }
        return sums;
    }

    interface Rated {
        double run() throws Exception;
    }

    /**
     * {rate, server CPU s per 1,000 jobs, database transactions per job, of that CPU the JIT compiler
     * threads' s per 1,000 jobs} of one measured run of {@code jobs} jobs. The CPU is read after the
     * wait for PostgreSQL's counts, so that the idle server's seconds before the run are not counted.
     */
    static double[] costOf(long pid, String database, int jobs, Rated run) throws Exception {
        long xactBefore = transactions(database);
        long cpuBefore = cpuTicks(pid);
        long jitBefore = compilerTicks(pid);
        double rate = run.run();
        awaitIdle();
        long cpu = cpuTicks(pid) - cpuBefore;
        long jit = compilerTicks(pid) - jitBefore;
        long xact = transactions(database) - xactBefore;
        return new double[] {rate, cpu / 100.0 * 1_000 / jobs, (double) xact / jobs, jit / 100.0 * 1_000 / jobs};
    }

    /**
     * utime + stime of the process's JIT compiler threads (C1 and C2) in clock ticks; a compiler
     * thread the JVM ended meanwhile takes its ticks with it, so this may count low, never high.
     */
    static long compilerTicks(long pid) throws Exception {
        long ticks = 0;
        try (var tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path task : tasks.toList()) {
                try {
                    if (Files.readString(task.resolve("comm")).contains("CompilerThre")) {
                        ticks += ticks(task.resolve("stat"));
                    }
                } catch (java.io.IOException ended) {
                    // the thread ended while being read
                }
            }
        }
        return ticks;
    }

    /** utime + stime of a process in clock ticks (USER_HZ, 100 on Linux), from /proc/PID/stat. */
    static long cpuTicks(long pid) throws Exception {
        return ticks(Path.of("/proc/" + pid + "/stat"));
    }

    /** utime + stime from a process's or a thread's stat file under /proc. */
    static long ticks(Path statFile) throws java.io.IOException {
        String stat = Files.readString(statFile);
        // the fields after the command's closing parenthesis; utime and stime are the 14th and 15th
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    /**
     * Committed and rolled back transactions of a database. PostgreSQL reports an idle
     * connection's counts up to 10 s late (PGSTAT_IDLE_INTERVAL), so this waits 11 s first.
     */
    static long transactions(String database) throws Exception {
        Thread.sleep(11_000);
        String out = run("psql", "-h", "127.0.0.1", "-U", "lastcall", "-d", database, "-qtAc",
                "select xact_commit + xact_rollback from pg_stat_database where datname = '" + database + "'").trim();
        return Long.parseLong(out);
    }

    /**
     * PostgreSQL's own rate of short write transactions on this machine: pgbench's built-in
     * simple-update (one UPDATE, one SELECT and one INSERT per transaction), 8 clients on 2 threads for
     * 15 s, scale 1, on its own tables in the bench database, dropped afterwards.
     */
    static double pgbench(String database) throws Exception {
        run("pgbench", "-h", "127.0.0.1", "-U", "lastcall", "-i", "-q", "-s", "1", database);
        try {
            String out = run("pgbench", "-h", "127.0.0.1", "-U", "lastcall", "-b", "simple-update", "-c", "8", "-j",
                    "2", "-T", "15", database);
            java.util.regex.Matcher tps = java.util.regex.Pattern.compile("tps = ([0-9.]+)").matcher(out);
            if (!tps.find()) {
                throw new IllegalStateException("pgbench printed no tps: " + out);
            }
            return Double.parseDouble(tps.group(1));
        } finally {
            run("psql", "-h", "127.0.0.1", "-U", "lastcall", "-d", database, "-qc",
                    "drop table if exists pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers");
        }
    }

    /** A figure, or "–" where the build does not report it. */
    static String figure(double value, String format) {
        return Double.isNaN(value) ? "–" : String.format(Locale.ROOT, format, value);
    }

    /** Runs a PostgreSQL client tool as the bench's database user; its output, or an exception if it failed. */
    static String run(String... command) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("PGPASSWORD", "lastcall");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IllegalStateException(String.join(" ", command) + ": " + out);
        }
        return out;
    }

    /**
     * The cost section: one row per measured build, the first the one the others are compared
     * with, and the raw figures of the parts underneath, measured in the same run after the builds.
     */
    static void writeCost(Path report, String database, List<String> labels) throws Exception {
        double rawPublish = rawPublish(20_000, 200, 120);
        double rawConsume = rawConsume(20_000, 64);
        double pgTps = pgbench(database);
        List<String> refs = labels.stream().filter(label -> !label.contains("#") && !label.equals("this-tree")).toList();
        long rounds = labels.stream().filter(label -> label.startsWith("this-tree")).count();
        StringBuilder s = new StringBuilder("\n## Cost per job\n\n" + LocalDate.now() + ", `"
                + (rounds > 1 ? "COST_ROUNDS=" + rounds + " " : "") + "./bench/run cost " + String.join(" ", refs)
                + "`: each build's EAR on the same server, restarted between builds, one after the other in one run"
                + (rounds > 1 ? ", the builds measured " + rounds + " times in turn (#2 the second time; each ratio"
                        + " against the first build of its own turn)" : "") + ". Server CPU from `/proc` of the"
                + " server's process, transactions from PostgreSQL's `pg_stat_database` (everything the server"
                + " commits in the ledger's database, the reconciler's passes included), from the start of each"
                + " measured phase until its jobs have ended; in brackets the JIT compiler threads' share of that CPU."
                + " After a cold round of the same two phases (below) and 6,000 more single submissions, so that"
                + " what is compared is each build's cost per job with its paths compiled rather than its"
                + " compilation.\n\n"
                + "| build | drain, 10,000 in batches (zero-latency model) | its batches accepted (500 each, 1 client"
                + " thread, while draining) | CPU s / 1,000 jobs | transactions / job"
                + " | check → last byte p50 / p99 (ms) | mean group: receipt + gate / handoff / settlement"
                + " | single `POST /api/jobs`, 2,000 on 8 threads | CPU s / 1,000 jobs | transactions / job"
                + " | mean submission group |\n"
                + "|---|---|---|---|---|---|---|---|---|---|---|\n");
        double[] last = null;
        for (String label : labels) {
            double[] v = costFigures(label);
            double[] first = firstOfTurn(label, labels);
            last = v;
            double[] g = java.util.Arrays.copyOfRange(v, 6, 12);
            s.append(String.format(Locale.ROOT, "| %s | %.0f/s (%.2f×) | %.0f/s (%.2f×) | %.2f (%.2f×; JIT %.2f) | %.2f"
                    + " | %s / %s | %s / %s / %s | %.0f/s (%.2f×) | %.2f (%.2f×; JIT %.2f) | %.2f | %s |\n", label, v[0],
                    v[0] / first[0], v[12], v[12] / first[12], v[1], v[1] / first[1], v[13], v[2], figure(g[0], "%.0f"),
                    figure(g[1], "%.0f"), figure(g[2], "%.1f"), figure(g[3], "%.1f"), figure(g[4], "%.1f"), v[3],
                    v[3] / first[3], v[4], v[4] / first[4], v[14], v[5], figure(g[5], "%.1f")));
        }
        if (rounds > 1) {
            s.append(turnByTurn(labels));
        }
        s.append("\nThe cold round before it, on each just-deployed server (what this section measured until"
                + " 2026-12-07, then after a warm-up of only 500 single submissions and a backlog of 2,000):\n\n"
                + "| build | drain | CPU s / 1,000 jobs | single | CPU s / 1,000 jobs |\n|---|---|---|---|---|\n");
        for (String label : labels) {
            double[] c = java.util.Arrays.copyOfRange(costFigures(label), 15, 21);
            double[] firstCold = java.util.Arrays.copyOfRange(firstOfTurn(label, labels), 15, 21);
            s.append(String.format(Locale.ROOT, "| %s | %.0f/s (%.2f×) | %.2f (%.2f×; JIT %.2f) | %.0f/s (%.2f×)"
                    + " | %.2f (%.2f×; JIT %.2f) |\n", label, c[0], c[0] / firstCold[0], c[1], c[1] / firstCold[1], c[2],
                    c[3], c[3] / firstCold[3], c[4], c[4] / firstCold[4], c[5]));
        }
        s.append(String.format(Locale.ROOT, "%nBeneath it, measured in the same run after the builds, on the same"
                + " machine: RabbitMQ alone %.0f persistent publishes/s with confirms (200 outstanding, 120 bytes) and"
                + " %.0f consumes + acks/s (prefetch 64); PostgreSQL alone %.0f transactions/s (pgbench simple-update,"
                + " 8 clients, 15 s). At the last build's drain rate its %.2f transactions per job are %.0f/s, %.0f %%"
                + " of what PostgreSQL does alone.%n", rawPublish, rawConsume, pgTps, last[2], last[0] * last[2],
                100 * last[0] * last[2] / pgTps));
        replaceSection(report, "\n## Cost per job\n", s.toString());
        System.out.println(s);
    }

    /** The figures of the first build in this build's turn ("#2", "#3", ... after the first), which its ratios are against. */
    static double[] firstOfTurn(String label, List<String> labels) throws java.io.IOException {
        int turn = label.indexOf('#');
        return costFigures(labels.get(0) + (turn < 0 ? "" : label.substring(turn)));
    }

    /**
     * This tree's CPU per job against the first build, turn by turn, and their median; then the same
     * without the compiler threads, which were still compiling in the measured round.
     */
    static String turnByTurn(List<String> labels) throws java.io.IOException {
        List<Double> drain = new ArrayList<>();
        List<Double> single = new ArrayList<>();
        List<Double> drainCompiled = new ArrayList<>();
        List<Double> singleCompiled = new ArrayList<>();
        for (String label : labels) {
            double[] v = costFigures(label);
            double[] first = firstOfTurn(label, labels);
            if (label.startsWith("this-tree")) {
                drain.add(v[1] / first[1]);
                single.add(v[4] / first[4]);
                drainCompiled.add((v[1] - v[13]) / (first[1] - first[13]));
                singleCompiled.add((v[4] - v[14]) / (first[4] - first[14]));
            }
        }
        return String.format(Locale.ROOT, "%nThis tree's CPU per job against %s, turn by turn: drained %s (median"
                + " %.2f×), single %s (median %.2f×); without the JIT compiler threads' share: drained %s (median"
                + " %.2f×), single %s (median %.2f×).%n", labels.get(0), ratios(drain), median(drain), ratios(single),
                median(single), ratios(drainCompiled), median(drainCompiled), ratios(singleCompiled),
                median(singleCompiled));
    }

    static String ratios(List<Double> values) {
        return values.stream().map(v -> String.format(Locale.ROOT, "%.2f×", v)).collect(Collectors.joining(", "));
    }

    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /** The figures {@link #cost} wrote for one build, in its order. */
    static double[] costFigures(String label) throws java.io.IOException {
        return java.util.Arrays.stream(Files.readString(Path.of("bench/target/cost-" + label + ".txt")).trim()
                .split(" ")).mapToDouble(Double::parseDouble).toArray();
    }

    /** Writes {@code section} at the report's end, in place of an earlier one whose heading starts with {@code heading}. */
    static void replaceSection(Path report, String heading, String section) throws java.io.IOException {
        String text = Files.exists(report) ? Files.readString(report) : "";
        int at = text.indexOf(heading);
        if (at >= 0) {
            int next = text.indexOf("\n## ", at + 5);
            text = text.substring(0, at) + (next >= 0 ? text.substring(next) : "");
        }
        Files.writeString(report, text + section);
    }

    /** One workload's object in /api/stats (to its closing brace; no string in it holds a brace). */
    static String workloadJson(String workload) throws Exception {
        String stats = get("/api/stats");
        int at = stats.indexOf("\"" + workload + "\":{");
        if (at < 0) {
            return "";
        }
        int depth = 0;
        for (int i = stats.indexOf('{', at); i < stats.length(); i++) {
            depth += stats.charAt(i) == '{' ? 1 : stats.charAt(i) == '}' ? -1 : 0;
            if (depth == 0) {
                return stats.substring(at, i + 1);
            }
        }
        return stats.substring(at);
    }

    /** A number in such an object (0 when absent); {@code key} is the member's name, or it quoted when it has a slash. */
    static double number(String json, String key) {
        String name = key.startsWith("\"") ? key : "\"" + key + "\"";
        // JSON-B writes a slash in a key as \/
        Matcher m = Pattern.compile(Pattern.quote(name).replace("/", "\\E\\\\?/\\Q") + ":(-?[0-9.Ee+-]+)").matcher(json);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }

    /** Batches of 500 zero-latency jobs (the server was just restarted), then the backend's delay and fresh counters. */
    static void warmUpThenDelay(int batches, String delay) throws Exception {
        for (int b = 0; b < batches; b++) {
            postBatch(500, 600_000);
        }
        awaitIdle();
        Files.writeString(delayFile, delay);
        backend("/reset");
    }

    static void backend(String path) throws Exception {
        HTTP.send(HttpRequest.newBuilder(URI.create(backend + path)).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.discarding());
    }

    /** requests, peak, stale, useful, late, running */
    static long[] backendStats() throws Exception {
        String[] f = HTTP.send(HttpRequest.newBuilder(URI.create(backend + "/stats")).build(),
                HttpResponse.BodyHandlers.ofString()).body().trim().split(" ");
        long[] v = new long[f.length];
        for (int i = 0; i < f.length; i++) {
            v[i] = Long.parseLong(f[i]);
        }
        return v;
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

    /** Jobs of one workload that reached an outcome, from /api/stats. */
    static long terminal(String workload) throws Exception {
        Matcher m = Pattern.compile("\"" + workload + "\":\\{[^}]*?\"terminal\":(\\d+)").matcher(get("/api/stats"));
        return m.find() ? Long.parseLong(m.group(1)) : 0;
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

package io.lastcall.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A provider's per-minute limit, kept by lastcall rather than learned from 429s: nginx (14888,
 * workload it-limited) allows 60 requests a minute (a bucket of 60 refilling one a second) and
 * answers {@code 429} beyond; lastcall is told the same limit
 * ({@code lastcall.workload.it-limited.requests-per-minute=60}). Three times what the limit lets
 * through before the jobs' deadlines arrive at once. From nginx's own access log: fewer than 5
 * in 1,000 requests are refused; every job ends once, the completed ones with one request, the
 * ones the limit had no room for without any (EXPIRED_NOT_STARTED, RATE_LIMITED when the gate
 * saw it coming, IN_BROKER when the queue's TTL came first).
 */
@ExtendWith(ArquillianExtension.class)
class RateLimitIT extends SpyBackedDeployment {

    private static final String WORKLOAD = "it-limited";
    private static final int LIMIT_PER_MINUTE = 60;
    private static final long LIFETIME_MS = 30_000;

    private record Logged(long atMs, int status, String jobId) {
    }

    @Test
    void threeTimesTheLimitDrawsNo429AndEveryJobEndsOnce() throws IOException {
        // on PostgreSQL (the production ledger, whose row locks the fleet shares); the suite runs it
        // on Payara only (docs/development.md, "Which tests run where"), WildFly when asked (-Dit.test)
        assumeTrue(ItConfig.postgres() || Server.wildfly(), "runs on PostgreSQL");
        threeTimesTheLimit(List.of(ItConfig.baseUrl()), WORKLOAD, spy);
    }

    /**
     * Submits three times what a limit of {@link #LIMIT_PER_MINUTE} lets through within the jobs'
     * lifetime, split evenly over {@code servers}, to a workload whose backend is nginx's 14888;
     * checks what nginx and the ledger saw, and returns the claims that passed per instance id.
     */
    static Map<String, Long> threeTimesTheLimit(List<String> servers, String workload, DispatchSpy spy)
            throws IOException {
        long logFrom = Files.exists(Gateway.limitedLog()) ? Files.readAllLines(Gateway.limitedLog()).size() : 0;
        long from = Jobs.now() - 1;
        // the limit lets 60 through at once and one a second after: about 90 within the lifetime
        int perServer = 3 * (LIMIT_PER_MINUTE + (int) (LIFETIME_MS / 1_000)) / servers.size();
        int jobs = perServer * servers.size();
        List<String> ids = new ArrayList<>();
        long expiresAt = Jobs.now() + LIFETIME_MS;
        for (String server : servers) {
            JsonArrayBuilder batch = Json.createArrayBuilder();
            for (int i = 0; i < perServer; i++) {
                String id = Jobs.newId("limited");
                batch.add(Jobs.envelope(id, expiresAt, "spy-ok").add("workload", workload));
                ids.add(id);
            }
            Export.submitBatch(server, batch, perServer);
        }
        List<JsonObject> rows = Export.awaitEnded(workload, from, jobs);

        Set<String> mine = Set.copyOf(ids);
        List<Logged> log = Files.readAllLines(Gateway.limitedLog()).stream().skip(logFrom).map(RateLimitIT::parse)
                .filter(l -> mine.contains(l.jobId())).toList();
        long refused = log.stream().filter(l -> l.status() == 429).count();
        Map<String, Long> outcomes = Export.outcomes(rows);
        Map<String, Long> passedBy = new TreeMap<>(rows.stream().filter(r -> "COMPLETED".equals(r.getString("state")))
                .collect(Collectors.groupingBy(r -> r.getString("instance_id", "?"), Collectors.counting())));
        long first = log.stream().mapToLong(Logged::atMs).min().orElse(0);
        long last = log.stream().mapToLong(Logged::atMs).max().orElse(0);
        long allowed = LIMIT_PER_MINUTE + (last - first) * LIMIT_PER_MINUTE / 60_000;
        long passed = log.stream().filter(l -> l.status() == 200).count();
        System.out.println("RateLimitIT (" + servers.size() + " server(s)): " + jobs + " jobs, " + log.size()
                + " requests at nginx, " + refused + " answered 429; " + passed + " passed of the " + allowed
                + " the limit allowed between the first and the last (" + (allowed == 0 ? 0 : 100 * passed / allowed)
                + " %); outcomes " + outcomes + "; completed per instance " + passedBy);

        assertTrue(refused * 1_000 < 5L * Math.max(log.size(), 1), refused + " of " + log.size() + " requests refused");
        for (String id : ids) {
            List<JsonObject> attempts = rows.stream().filter(r -> id.equals(r.getString("job_id"))).toList();
            JsonObject job = attempts.get(0);
            long requests = spy.requestsFor(id).size();
            if ("COMPLETED".equals(job.getString("state"))) {
                assertEquals(1, requests, "one request for a completed job: " + attempts);
            } else if ("EXPIRED_NOT_STARTED".equals(job.getString("state"))) {
                assertEquals(0, requests, "no request for a job that never started: " + attempts);
            }
        }
        assertTrue(outcomes.getOrDefault("COMPLETED/ON_TIME", 0L) >= LIMIT_PER_MINUTE * 9 / 10,
                "at least the first minute's bucket went through: " + outcomes);
        assertTrue(outcomes.keySet().stream().allMatch(o -> o.startsWith("COMPLETED/") || o.startsWith(
                "EXPIRED_NOT_STARTED/")), "completed or never started, nothing else: " + outcomes);
        assertTrue(outcomes.getOrDefault("EXPIRED_NOT_STARTED/RATE_LIMITED", 0L) > 0,
                "the gate ended the jobs the limit had no room for: " + outcomes);
        return passedBy;
    }

    private static Logged parse(String line) {
        String[] f = line.trim().split(" ");
        return new Logged(Math.round(Double.parseDouble(f[0]) * 1000), Integer.parseInt(f[1]), f.length > 2 ? f[2] : "");
    }
}

package io.lastcall.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The scale-out build's two servers claim the jobs of one workload whose daily budget fits four
 * estimates (src-it-scale/scale-domain.env, workload "scale-budget"). 40 jobs, submitted through
 * both, are delivered to both servers' consumers at once; each claim locks the one budget row in
 * PostgreSQL, so exactly as many jobs pass as the budget fits and the rest end BUDGET_DENIED.
 * Each call takes 6 s, so every claim is decided while the passed ones still hold their
 * reservations (an answer's cost is below its estimate and would free room).
 */
@EnabledIfSystemProperty(named = "lastcall.it.scaleout", matches = "true")
class BudgetAcrossServersIT {

    private static final String WORKLOAD = "scale-budget";
    private static final String QUEUE = "scale.lastcall.work." + WORKLOAD;
    private static final int JOBS = 40;
    private static final Duration WAIT = Duration.ofMinutes(2);

    private final String a = ItConfig.baseUrl();
    private final String b = System.getProperty("lastcall.it.base-url-b");

    @Test
    void twoServersNeverPassMoreClaimsThanOneBudgetFits() {
        DispatchSpy spy = DispatchSpy.get();
        for (String server : new String[] {a, b}) {
            Await.until(server + " consumes " + QUEUE, WAIT, () -> consumersOf(server), n -> n > 0);
        }

        long deliveredA = activation(a).getJsonNumber("delivered").longValue();
        long deliveredB = activation(b).getJsonNumber("delivered").longValue();
        Map<String, Long> deadlines = new TreeMap<>();
        for (int i = 0; i < JOBS; i++) {
            String id = Jobs.newId("budget");
            long expiresAt = Jobs.now() + 120_000;
            assertEquals(201, ScaleOutIT.submit(i % 2 == 0 ? a : b, Jobs.envelope(id, expiresAt, "spy-delay-6000")
                    .add("workload", WORKLOAD).build().toString()), id);
            deadlines.put(id, expiresAt);
        }

        Map<String, JsonObject> ended = EndedJobs.await(deadlines.keySet(), a, WAIT);
        Map<String, Long> outcomes = EndedJobs.check(ended, deadlines, spy);

        BigDecimal budget = new BigDecimal(ItConfig.domainSetting("LASTCALL_WORKLOAD_SCALE_BUDGET_BUDGET"));
        BigDecimal estimate = ended.values().iterator().next().getJsonNumber("estimate").bigDecimalValue();
        long fits = budget.divide(estimate, 0, RoundingMode.FLOOR).longValueExact();
        assertTrue(fits > 0 && fits < JOBS, "the budget fits some of the jobs, not all: " + fits);
        assertEquals(Map.of("COMPLETED/ON_TIME", fits, "BUDGET_DENIED/BUDGET_DENIED", JOBS - fits), outcomes,
                "exactly the jobs the budget fits were claimed, across both servers");
        assertEquals(fits, deadlines.keySet().stream().mapToInt(id -> spy.requestsFor(id).size()).sum());
        // both servers decided claims (nothing else runs on that activation's queues meanwhile)
        long decidedByA = activation(a).getJsonNumber("delivered").longValue() - deliveredA;
        long decidedByB = activation(b).getJsonNumber("delivered").longValue() - deliveredB;
        assertTrue(decidedByA > 0 && decidedByB > 0, "deliveries on A " + decidedByA + ", on B " + decidedByB);

        JsonObject stats = Api.sendTo(b, "GET", "/api/stats", null, ItConfig.user("operator")).json().asJsonObject()
                .getJsonObject("workloads").getJsonObject(WORKLOAD);
        BigDecimal spent = stats.getJsonNumber("actual_spend").bigDecimalValue();
        assertTrue(spent.signum() > 0 && spent.compareTo(budget) <= 0, "spend within the budget: " + stats);
        Map<String, Long> passedBy = ended.values().stream().flatMap(j -> j.getJsonArray("attempts").stream())
                .collect(Collectors.groupingBy(x -> x.asJsonObject().getString("instance_id", "?"), TreeMap::new,
                        Collectors.counting()));
        System.out.println("budget across servers: " + fits + " of " + JOBS + " fit " + budget + " at " + estimate
                + " each; spent " + spent + "; deliveries on A " + decidedByA + ", on B " + decidedByB
                + "; passed claims per server " + passedBy);
    }

    /** The connected consumers of the activation that consumes {@link #QUEUE}, per its health; 0 when down. */
    private static int consumersOf(String server) {
        return ScaleOutIT.health(server) == 200 ? activation(server).getInt("consumers_connected") : 0;
    }

    /** The server's activation whose queue list holds {@link #QUEUE}, as its health shows it. */
    private static JsonObject activation(String server) {
        return Api.sendTo(server, "GET", "/api/health", null, ItConfig.user("operator")).json().asJsonObject()
                .getJsonObject("broker").getJsonArray("consumers").getValuesAs(JsonObject.class).stream()
                .filter(c -> List.of(c.getString("queue", "").split(",")).contains(QUEUE)).findFirst()
                .orElseThrow(() -> new AssertionError("no activation consumes " + QUEUE + " on " + server));
    }
}

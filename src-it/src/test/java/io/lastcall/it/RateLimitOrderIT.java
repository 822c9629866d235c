package io.lastcall.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIf;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Jobs waiting for a full per-minute limit get the refill in deadline order: the spy under a
 * backend key of its own, declared at 60 requests a minute (lastcall refills one request a
 * second), is drained by workload it-ordered-fill until its jobs wait for the refill; then eight
 * jobs of it-ordered (the same backend) are published latest deadline first. 16 consumers for
 * this deployment, so that all eight are held at once beside the fill's waiters (with the
 * domain's 4, the fill's waiters held every consumer and the eight came in one at a time, an
 * order the line never saw). From the ledger: every one of them that was held by this server
 * while a later-due one was handed off was itself handed off before it. With a timer per waiter,
 * the refill went to whichever thread ran first.
 */
@ExtendWith(ArquillianExtension.class)
// the line is per server, the database adds nothing: on Payara with H2 and on WildFly (whose pass
// runs on PostgreSQL), not deployed at all on Payara with PostgreSQL (a condition on the class is
// checked before Arquillian deploys)
@DisabledIf("onPayaraWithPostgres")
class RateLimitOrderIT {

    static boolean onPayaraWithPostgres() {
        return ItConfig.postgres() && !Server.wildfly();
    }

    private static final String WORKLOAD = "it-ordered";
    private static final String FILL = "it-ordered-fill";
    /** A job held this long before another's handoff was already waiting in line for the backend. */
    private static final long IN_LINE_MS = 200;

    @Deployment(testable = false)
    static EnterpriseArchive deployment() {
        DispatchSpy.get();
        Deployments.freshProbeQueues();
        return Deployments.lastcallWithProbes(Map.of("config_ordinal", "400", "lastcall.worker.consumers", "16"));
    }

    @BeforeEach
    @AfterEach
    void workerIdle() {
        Jobs.awaitIdle();
    }

    @Test
    void theRefillGoesToTheWaitingJobDueSoonest() {
        long from = Jobs.now() - 1;
        // a few more than the backend's minute holds (57, planned at 95 %), due after the jobs below:
        // once some wait for the refill, the minute is empty, whatever this machine's speed
        List<String> fillers = submit(FILL, 62, i -> Jobs.now() + 60_000);
        Await.until("the minute's worth of the fill answered, the rest waiting", Duration.ofSeconds(60),
                () -> Export.rows(FILL, from).stream().filter(r -> "COMPLETED".equals(r.getString("state"))).count(),
                n -> n >= 57 && n <= fillers.size() - 2);

        long orderedFrom = Jobs.now() - 1;
        long now = Jobs.now();
        List<String> ordered = submit(WORKLOAD, 8, i -> now + 30_000 - i * 2_000L);
        List<JsonObject> rows = Export.awaitEnded(WORKLOAD, orderedFrom, ordered.size());
        List<JsonObject> jobs = rows.stream().filter(r -> ordered.contains(r.getString("job_id"))).toList();
        System.out.println("RateLimitOrderIT: " + Export.outcomes(rows)
                + "; handed off (due in s, held ms): " + jobs.stream().filter(j -> !j.isNull("handed_off_at"))
                .sorted(Comparator.comparingLong(j -> at(j, "handed_off_at")))
                .map(j -> (at(j, "expires_at") - now) / 1_000 + "s/" + (at(j, "handed_off_at") - at(j, "received_at")))
                .toList());
        assertEquals(ordered.size(), jobs.size(), String.valueOf(rows));
        for (JsonObject job : jobs) {
            assertEquals("COMPLETED", job.getString("state"), "every one fits in its lifetime: " + job);
        }
        long waited = jobs.stream().filter(j -> at(j, "handed_off_at") - at(j, "received_at") >= 500).count();
        assertTrue(waited >= 3, "jobs waited for the refill: " + waited);
        long heldTogether = jobs.stream().filter(j -> at(j, "received_at") < jobs.stream()
                .mapToLong(k -> at(k, "handed_off_at")).min().orElseThrow()).count();
        assertTrue(heldTogether >= 4, "jobs held at once, for the line to order: " + heldTogether);
        List<String> inversions = new ArrayList<>();
        for (JsonObject early : jobs) {
            for (JsonObject late : jobs) {
                boolean dueSooner = at(early, "expires_at") < at(late, "expires_at");
                boolean heldMeanwhile = at(early, "received_at") + IN_LINE_MS <= at(late, "handed_off_at");
                if (dueSooner && heldMeanwhile && at(early, "handed_off_at") > at(late, "handed_off_at")) {
                    inversions.add(early.getString("job_id") + " (due " + at(early, "expires_at") + ") after "
                            + late.getString("job_id") + " (due " + at(late, "expires_at") + ")");
                }
            }
        }
        assertEquals(List.of(), inversions, "a waiting job due sooner was handed off after one due later");
        // the fill's remaining jobs take one refill each: the next test starts with them ended
        Export.awaitEnded(FILL, from, fillers.size());
    }

    private static List<String> submit(String workload, int n, java.util.function.IntToLongFunction expiresAt) {
        List<String> ids = new ArrayList<>();
        JsonArrayBuilder batch = Json.createArrayBuilder();
        for (int i = 0; i < n; i++) {
            String id = Jobs.newId("ordered");
            batch.add(Jobs.envelope(id, expiresAt.applyAsLong(i), "spy-ok").add("workload", workload));
            ids.add(id);
        }
        Export.submitBatch(batch, n);
        return ids;
    }

    private static long at(JsonObject row, String field) {
        return row.getJsonNumber(field).longValue();
    }
}

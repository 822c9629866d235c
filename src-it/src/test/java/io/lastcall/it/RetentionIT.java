package io.lastcall.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Retention with a 6 s maximum age: the reconciler purges ended jobs, their attempts and their
 * delivery-log rows, and the workload's counts, spend and avoided exposure are the same after the
 * purge as before it. Workload it-retention is used by this test only, so its figures are exact.
 */
@ExtendWith(ArquillianExtension.class)
class RetentionIT {

    static final String WORKLOAD = "it-retention";
    static final String QUEUE = "it.lastcall.work." + WORKLOAD;

    private final DispatchSpy spy = DispatchSpy.get();

    @Deployment(testable = false)
    static EnterpriseArchive deployment() {
        DispatchSpy.get();
        Deployments.freshProbeQueues();
        return Deployments.lastcallWithProbes(Map.of("lastcall.retention.max-age-ms", "6000",
                "lastcall.reconciler.rollup-lag-ms", "1000"));
    }

    /**
     * A failed call keeps its reservation as spend (it may have run); once retention purged it, the
     * budget (0.0002, one estimate) still counts it and refuses a second job.
     */
    @Test
    void aBudgetStillCountsWhatRetentionPurged() {
        String spent = Jobs.newId("retention-spent");
        Jobs.submit(Jobs.envelope(spent, Jobs.now() + 60_000, "spy-status-500").add("workload", "it-retention-budget"));
        JsonObject failed = Jobs.awaitOutcome(spent, Duration.ofSeconds(30));
        assertEquals("EXECUTION_FAILED", failed.getString("outcome"), failed.toString());
        BigDecimal kept = failed.getJsonArray("attempts").getJsonObject(0).getJsonNumber("reserved").bigDecimalValue();
        assertTrue(kept.signum() > 0, "the exposure is kept: " + failed);
        Await.until(spent + " purged", Duration.ofSeconds(60), () -> {
            Jobs.reconcile();
            return Jobs.get(spent);
        }, job -> job == null);

        String next = Jobs.newId("retention-next");
        Jobs.submit(Jobs.envelope(next, Jobs.now() + 60_000, "spy-ok").add("workload", "it-retention-budget"));
        JsonObject denied = Jobs.awaitOutcome(next, Duration.ofSeconds(30));
        assertEquals("BUDGET_DENIED", denied.getString("outcome"), "the purged spend still counts: " + denied);
        assertEquals(0, spy.requestsFor(next).size());
    }

    @Test
    void endedJobsArePurgedAndTheirTotalsSurvive() {
        // two holders of the permits and two jobs waiting behind them: all four complete
        List<String> completed = Jobs.occupyConsumers(spy, 0, 2_000, WORKLOAD);
        String expired = Jobs.newId("retention-expired");
        Jobs.submit(Jobs.envelope(expired, Jobs.now() + 1_000, "spy-ok").add("workload", WORKLOAD));

        BigDecimal spend = BigDecimal.ZERO;
        for (String id : completed) {
            JsonObject job = Jobs.awaitOutcome(id, Duration.ofSeconds(30));
            assertEquals("COMPLETED", job.getString("outcome"), job.toString());
            spend = spend.add(job.getJsonArray("attempts").getJsonObject(0).getJsonNumber("cost").bigDecimalValue());
        }
        JsonObject stale = Jobs.awaitOutcome(expired, Duration.ofSeconds(30));
        assertEquals("EXPIRED_NOT_STARTED", stale.getString("outcome"), stale.toString());
        BigDecimal avoided = stale.getJsonNumber("estimate").bigDecimalValue();
        JsonObject before = workload();
        assertTrue(Api.deliveries(QUEUE).stream().anyMatch(d -> d.messageId().equals("ID:" + completed.get(0))),
                "the delivery log holds the completed jobs' deliveries before the purge");

        // passes roll the ended jobs up a second after they ended: the figures do not move
        if (ItConfig.postgres()) {
            String lastEnded = Postgres.sql("SELECT max(finished_at) FROM lc_job WHERE workload = '" + WORKLOAD + "'");
            Await.until("the ended jobs rolled up", Duration.ofSeconds(20), () -> {
                Jobs.reconcile();
                return Long.parseLong(Postgres.sql("SELECT rolled_up_to FROM lc_rollup")) >= Long.parseLong(lastEnded);
            }, rolled -> rolled);
        } else {
            Await.sleep(1_500);
            Jobs.reconcile();
        }
        JsonObject rolledUp = workload();
        for (String figure : List.of("accepted", "terminal", "in_flight", "attempts", "outcomes", "reasons",
                "actual_spend", "reserved", "estimated_avoided_exposure", "double_claims", "invariant_holds")) {
            assertEquals(before.get(figure), rolledUp.get(figure), figure + " after the roll-up");
        }

        List<String> all = new ArrayList<>(completed);
        all.add(expired);
        Await.until("the ended jobs purged", Duration.ofSeconds(40), () -> {
            Jobs.reconcile();
            return all.stream().allMatch(id -> Jobs.get(id) == null);
        }, gone -> gone);

        JsonObject after = workload();
        assertEquals(all.size(), after.getInt("accepted"));
        assertEquals(all.size(), after.getInt("terminal"));
        assertEquals(before.getJsonObject("outcomes"), after.getJsonObject("outcomes"));
        assertEquals(before.getJsonObject("reasons"), after.getJsonObject("reasons"));
        assertEquals(completed.size(), after.getJsonObject("outcomes").getInt("COMPLETED"));
        assertEquals(1, after.getJsonObject("outcomes").getInt("EXPIRED_NOT_STARTED"));
        assertEquals(0, spend.compareTo(after.getJsonNumber("actual_spend").bigDecimalValue()), after.toString());
        assertEquals(0, avoided.compareTo(after.getJsonNumber("estimated_avoided_exposure").bigDecimalValue()),
                after.toString());
        assertEquals(before.getInt("attempts"), after.getInt("attempts"));
        assertTrue(after.getBoolean("invariant_holds"), after.toString());
        assertEquals(List.of(), Api.deliveries(QUEUE), "the delivery log is purged too");
    }

    private static JsonObject workload() {
        return Api.get("/api/stats").json().asJsonObject().getJsonObject("workloads").getJsonObject(WORKLOAD);
    }
}

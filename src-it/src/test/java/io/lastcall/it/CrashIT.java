package io.lastcall.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
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
 * The server process is killed (SIGKILL) while two model calls are in flight, after their
 * HANDED_OFF commits — by then the broker deliveries are already acknowledged (the ledger owns a
 * handed-off job). After the restart both jobs are OUTCOME_UNKNOWN at once, with their exposure
 * still reserved, and nothing is delivered or requested again. And killed in the middle of a
 * burst that fills the adapter's wide window (4 consumers of prefetch 64 for this deployment):
 * the deliveries it held come back to the restarted server, and every job ends once, none
 * requested twice.
 */
@ExtendWith(ArquillianExtension.class)
class CrashIT {

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final String QUEUE = "it.lastcall.work.it-crash";

    @Deployment(testable = false)
    static EnterpriseArchive deployment() {
        DispatchSpy.get();
        Deployments.freshProbeQueues();
        // a wide window: up to 4 x 64 deliveries held, unacknowledged, in the adapter's deadline queue
        return Deployments.lastcallWithProbes(Map.of("config_ordinal", "400", "lastcall.worker.prefetch", "64"));
    }

    @Test
    void crashInTheMiddleOfABurstWithAFullWindowLosesAndDuplicatesNothing() throws Exception {
        assumeTrue(!ItConfig.postgres() && !Server.wildfly(), "once, on Payara with H2: a restart takes a minute");
        Jobs.awaitIdle();
        DispatchSpy spy = DispatchSpy.get();
        String queue = ItConfig.workerQueue();
        long from = Jobs.now() - 1;
        // 240 jobs of 200 ms calls on 2 permits (about 10 a second), due in 150-240 s, submitted shuffled
        List<String> ids = new ArrayList<>();
        JsonArrayBuilder batch = Json.createArrayBuilder();
        long now = Jobs.now();
        List<Integer> order = new ArrayList<>(java.util.stream.IntStream.range(0, 240).boxed().toList());
        java.util.Collections.shuffle(order, new java.util.Random(7));
        for (int i : order) {
            String id = Jobs.newId("window");
            batch.add(Jobs.envelope(id, now + 150_000 + i * 375L, "spy-delay-200"));
            ids.add(id);
        }
        Export.submitBatch(batch, ids.size());
        Broker.QueueCounts held = Await.until("the burst under way, the window full", WAIT, () -> Broker.counts(queue),
                c -> c.unacked() >= 200 && ids.stream().filter(id -> spy.requestsFor(id).size() == 1).count() >= 20);

        Server.kill();
        Server.restart();
        List<JsonObject> rows = Export.awaitEnded("incident-summary", from, ids.size());

        Map<String, Long> outcomes = Export.outcomes(rows.stream().filter(r -> ids.contains(r.getString("job_id")))
                .toList());
        long redelivered = Api.deliveries(queue).stream().filter(d -> d.redelivered()
                && ids.contains(d.messageId().substring("ID:".length()))).count();
        System.out.println("CrashIT, full window: " + held.unacked() + " deliveries held at the kill, " + redelivered
                + " redelivered after it; outcomes " + outcomes);
        assertTrue(redelivered > 0, "the deliveries the window held came back to the restarted server");
        for (String id : ids) {
            List<JsonObject> attempts = rows.stream().filter(r -> id.equals(r.getString("job_id"))).toList();
            String state = attempts.get(0).getString("state");
            int requests = spy.requestsFor(id).size();
            assertTrue(requests <= 1, id + " requested " + requests + " times: " + attempts);
            if ("COMPLETED".equals(state)) {
                assertEquals(1, requests, "a completed job was requested once: " + attempts);
            } else {
                // a call in flight at the kill: its outcome cannot be known, and it is never resent
                assertEquals("OUTCOME_UNKNOWN", state, attempts.toString());
            }
        }
        assertTrue(outcomes.entrySet().stream().filter(e -> e.getKey().startsWith("OUTCOME_UNKNOWN"))
                .mapToLong(Map.Entry::getValue).sum() <= 2, "at most the 2 calls in flight are unknown: " + outcomes);
        assertTrue(Jobs.reconcile().getBoolean("invariant_holds"), "every accepted job has one outcome");
        Jobs.awaitIdle();
    }

    @Test
    void crashWithCallsInFlightLeavesTheirOutcomesUnknownAndNeverResends() throws Exception {
        DispatchSpy spy = DispatchSpy.get();
        // workload it-crash: a call may take 10 s; the spy would answer after 60 s
        List<String> ids = List.of(Jobs.newId("crash"), Jobs.newId("crash"));
        for (String id : ids) {
            Jobs.submit(Jobs.envelope(id, Jobs.now() + 120_000, "spy-delay-60000").add("workload", "it-crash"));
        }
        Await.until("both requests reached the model", WAIT, () -> ids.stream()
                .mapToInt(id -> spy.requestsFor(id).size()).sum(), n -> n == 2);
        ids.forEach(id -> assertEquals("HANDED_OFF", Jobs.get(id).getString("state")));
        Await.until("the deliveries acknowledged while the calls run", Duration.ofSeconds(10),
                () -> Broker.counts(QUEUE), c -> c.ready() == 0 && c.unacked() == 0);

        Server.kill();
        Server.restart();
        for (String id : ids) {
            // closed by the restarted server at its startup, without waiting for a reconciler pass
            JsonObject job = Await.until("the verdict of the restarted server", Duration.ofSeconds(10),
                    () -> Jobs.get(id), j -> !j.isNull("outcome"));
            assertEquals("OUTCOME_UNKNOWN", job.getString("outcome"), job.toString());
            assertEquals("SERVER_RESTARTED", job.getString("reason"), "closed at startup");
            JsonObject attempt = job.getJsonArray("attempts").getJsonObject(0);
            assertEquals(1, job.getJsonArray("attempts").size());
            assertEquals("UNKNOWN", attempt.getString("state"));
            assertEquals(attempt.getJsonNumber("estimate").bigDecimalValue(), attempt.getJsonNumber("reserved")
                    .bigDecimalValue(), "the exposure stays reserved");
        }
        assertTrue(Jobs.reconcile().getBoolean("invariant_holds"));
        assertEquals(new Broker.QueueCounts(QUEUE, 0, 0, Broker.counts(QUEUE).consumers()), Broker.counts(QUEUE),
                "nothing left on the queue to deliver again");
        for (String id : ids) {
            assertEquals(0, Api.deliveries(QUEUE).stream().filter(d -> d.messageId().equals("ID:" + id)
                    && d.redelivered()).count(), "never redelivered");
            assertEquals(1, spy.requestsFor(id).size(), "no second request after the restart");
        }
    }
}

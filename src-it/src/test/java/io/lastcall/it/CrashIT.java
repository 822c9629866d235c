package io.lastcall.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.List;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The server process is killed (SIGKILL) while two model calls are in flight, after their
 * HANDED_OFF commits — by then the broker deliveries are already acknowledged (the ledger owns a
 * handed-off job). After the restart both jobs are OUTCOME_UNKNOWN at once, with their exposure
 * still reserved, and nothing is delivered or requested again.
 */
@ExtendWith(ArquillianExtension.class)
class CrashIT {

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final String QUEUE = "it.lastcall.work.it-crash";

    @Deployment(testable = false)
    static EnterpriseArchive deployment() {
        DispatchSpy.get();
        Deployments.freshProbeQueues();
        return Deployments.lastcallWithProbes();
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

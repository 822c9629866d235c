package io.lastcall.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lastcall.it.Api.Reply;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/** The topology lastcall declares, when the broker disagrees with it or loses a publish. */
@ExtendWith(ArquillianExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TopologyIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String TIER = "it.lastcall.retry.2000";

    @Deployment(testable = false)
    static EnterpriseArchive deployment() {
        DispatchSpy.get();
        Deployments.freshProbeQueues();
        // the retry tier exists with another TTL than lastcall declares: a conflict at startup
        Broker.withChannel(channel -> {
            channel.queueDelete(TIER);
            channel.queueDeclare(TIER, true, false, false, Map.of("x-message-ttl", 1234));
            return null;
        });
        return Deployments.lastcallWithProbes();
    }

    @Test
    @Order(1)
    void aConflictingQueueIsAClearStartupErrorNamingQueueAndArgument() {
        Reply health = Api.get("/api/health");

        assertEquals(503, health.status());
        JsonObject broker = health.json().asJsonObject().getJsonObject("broker");
        String error = broker.getString("topology_error");
        assertTrue(error.contains("PRECONDITION_FAILED") && error.contains("x-message-ttl") && error.contains(TIER),
                error);

        Broker.withChannel(channel -> channel.queueDelete(TIER));

        Await.until("declared on the next retry", WAIT, () -> Api.get("/api/health").status(), s -> s == 200);
        assertEquals(0, Broker.counts(TIER).ready());
    }

    @Test
    @Order(2)
    void aJobWhosePublishWasNotConfirmedStaysAcceptedAndTheReconcilerPublishesIt() {
        DispatchSpy spy = DispatchSpy.get();
        String id = Jobs.newId("unconfirmed");
        Broker.withChannel(channel -> channel.exchangeDelete(Broker.WORK_EXCHANGE));
        try {
            Reply reply = Jobs.submit(Jobs.envelope(id, Jobs.now() + 60_000, "spy-ok"));

            assertEquals(201, reply.status(), reply.json().toString());
            assertEquals("ACCEPTED", reply.json().asJsonObject().getString("state"), "no confirm, not QUEUED");
            assertTrue(reply.json().asJsonObject().getJsonObject("trace").isNull("published_at"));
        } finally {
            Broker.restoreWorkExchange();
        }
        assertEquals(List.of(), spy.requestsFor(id));

        JsonObject job = Await.until("republished by the reconciler and completed", WAIT, () -> {
            Jobs.reconcile();
            return Jobs.get(id);
        }, j -> !j.isNull("outcome"));
        assertEquals("COMPLETED", job.getString("outcome"), job.toString());
        assertEquals(1, spy.requestsFor(id).size());
        assertTrue(Jobs.reconcile().getBoolean("invariant_holds"));
    }
}

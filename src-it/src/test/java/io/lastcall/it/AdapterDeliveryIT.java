package io.lastcall.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.rabbitmq.client.AMQP;

import io.lastcall.it.Api.Delivery;
import io.lastcall.it.Broker.QueueCounts;
import io.lastcall.it.probe.ProbeQueues;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The adapter's delivery contract on a real broker, a real Payara and a real database
 * ({@code -Dlastcall.it.db}). Every assertion is on broker figures or ledger rows.
 */
@ExtendWith(ArquillianExtension.class)
class AdapterDeliveryIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private final String run = UUID.randomUUID().toString().substring(0, 8);

    @Deployment(testable = false)
    static EnterpriseArchive deployment() {
        Deployments.freshProbeQueues();
        return Deployments.lastcallWithProbes();
    }

    @Test
    void plainAmqpMessageReachesTheWorkerMdbAndIsAcknowledged() {
        String queue = ItConfig.workerQueue();
        Await.until("worker consumers connected", WAIT, () -> Broker.counts(queue), c -> c.consumers() > 0);
        String body = "hello-" + run;

        Broker.publish(queue, "msg-" + run, body);

        List<Delivery> rows = Await.until("the delivery row", WAIT, () -> Api.deliveries(queue, body), r -> !r.isEmpty());
        assertEquals(1, rows.size(), "one row per delivered message: " + rows);
        assertEquals("ID:msg-" + run, rows.get(0).messageId());
        assertFalse(rows.get(0).redelivered());
        QueueCounts counts = Await.until("queue drained and acked", WAIT, () -> Broker.counts(queue),
                c -> c.ready() == 0 && c.unacked() == 0);
        assertEquals(0, counts.ready());

        JsonObject health = Api.get("/api/health").json().asJsonObject();
        assertEquals("UP", health.getString("status"), health.toString());
        JsonObject broker = health.getJsonObject("broker");
        assertTrue(broker.getBoolean("connected"), broker.toString());
        assertTrue(broker.getJsonArray("consumers").stream().map(JsonValue::asJsonObject)
                .anyMatch(c -> List.of(c.getString("queue").split(",")).contains(queue) && c.getBoolean("connected")),
                broker.toString());
    }

    @Test
    void rollbackLeavesNoRowAndTheRedeliveryPersists() {
        String body = "fail-first:" + run;

        Broker.publish(ProbeQueues.FLAKY, "ff-" + run, body);

        List<Delivery> attempts = Await.until("two attempts", WAIT,
                () -> Api.deliveries(ProbeQueues.FLAKY_ATTEMPTS, body), a -> a.size() >= 2);
        Await.until("flaky queue drained and acked", WAIT, () -> Broker.counts(ProbeQueues.FLAKY),
                c -> c.ready() == 0 && c.unacked() == 0);
        List<Delivery> rows = Api.deliveries(ProbeQueues.FLAKY, body);
        assertEquals(1, rows.size(), "the first delivery's row rolled back, the second's committed: " + rows);
        assertTrue(rows.get(0).redelivered(), "the surviving row is the redelivery (JMSRedelivered=true)");
        assertEquals(2, Api.deliveries(ProbeQueues.FLAKY_ATTEMPTS, body).size(), "exactly two deliveries");
        assertEquals(1, attempts.stream().filter(a -> !a.redelivered()).count(), "one first delivery: " + attempts);
    }

    @Test
    void poisonMessageStopsAfterMaxRedeliveriesInTheDeadLetterQueue() {
        String body = "fail-always:" + run;

        Broker.publish(ProbeQueues.FLAKY, "fa-" + run, body);

        Await.until("the poison message dead-lettered", WAIT, () -> Broker.counts(ProbeQueues.FLAKY_DEAD),
                c -> c.ready() == 1);
        QueueCounts work = Broker.counts(ProbeQueues.FLAKY);
        assertEquals(0, work.ready() + work.unacked(), "nothing left looping on the work queue: " + work);
        int deliveries = Api.deliveries(ProbeQueues.FLAKY_ATTEMPTS, body).size();
        assertEquals(ProbeQueues.FLAKY_MAX_REDELIVERIES + 1, deliveries, "1 delivery + maxRedeliveries");
        Await.sleep(1_500);
        assertEquals(deliveries, Api.deliveries(ProbeQueues.FLAKY_ATTEMPTS, body).size(), "no further deliveries");
        assertEquals(List.of(), Api.deliveries(ProbeQueues.FLAKY, body), "every attempt rolled back");
        assertEquals(List.of(body), Broker.drain(ProbeQueues.FLAKY_DEAD), "the message itself is kept");
    }

    /**
     * Also the window's order: the first message goes to the consumer thread and blocks there; the
     * next prefetch - 1 wait in the adapter. Five of them are tenant "flood"'s, due 1 to 5, and two
     * are one each of tenants "small-a" and "small-b", due 50 and 60: the tenants take turns, each
     * lowest {@code x-probe-due} first, so the small ones go right after flood's first, not after
     * all five (deadline order alone would put them last). The last 3 (flood's, no due header: due
     * on arrival) wait in the broker and come last, in the broker's order.
     */
    @Test
    void prefetchBoundsUnacknowledgedMessagesOfABlockedConsumerAndItsWindowGoesOnInTurnsAndHeaderOrder() {
        int prefetch = ProbeQueues.BLOCKING_PREFETCH;
        int published = prefetch + 3;
        String prefix = "blocked-" + run + "-";
        Await.until("blocking consumer connected", WAIT, () -> Broker.counts(ProbeQueues.BLOCKING),
                c -> c.consumers() == 1);

        Broker.publish(ProbeQueues.BLOCKING, prefix + 0, prefix + 0);
        Await.until("the first taken by the consumer thread", WAIT, () -> blockingActivation().getInt("delivered"),
                n -> n == 1);
        long[] window = {4, 50, 2, 5, 60, 1, 3};
        String[] tenants = {"flood", "small-a", "flood", "flood", "small-b", "flood", "flood"};
        assertEquals(prefetch - 1, window.length);
        for (int i = 1; i < published; i++) {
            AMQP.BasicProperties.Builder props = new AMQP.BasicProperties.Builder().messageId(prefix + i)
                    .deliveryMode(2).contentType("text/plain");
            props.headers(i < prefetch
                    ? java.util.Map.of(ProbeQueues.BLOCKING_ORDER_BY, window[i - 1],
                            ProbeQueues.BLOCKING_SHARE_BY, tenants[i - 1])
                    : java.util.Map.of(ProbeQueues.BLOCKING_SHARE_BY, "flood"));
            Broker.publish(ProbeQueues.BLOCKING, props.build(), (prefix + i).getBytes(StandardCharsets.UTF_8));
        }

        QueueCounts held = Await.until(prefetch + " unacked", WAIT, () -> Broker.counts(ProbeQueues.BLOCKING),
                c -> c.unacked() == prefetch);
        assertEquals(published - prefetch, held.ready(), held.toString());
        Await.sleep(2_000);
        assertEquals(new QueueCounts(ProbeQueues.BLOCKING, published - prefetch, prefetch, 1),
                Broker.counts(ProbeQueues.BLOCKING), "still exactly prefetch unacked while blocked");
        assertEquals(List.of(prefetch), Broker.consumerPrefetch(ProbeQueues.BLOCKING));
        assertEquals(List.of(), Api.deliveries(ProbeQueues.BLOCKING, prefix), "nothing processed while blocked");
        assertEquals(prefetch - 1, blockingActivation().getInt("held"), "the rest of the window waits in the adapter");
        assertEquals(ProbeQueues.BLOCKING_ORDER_BY, blockingActivation().getString("order_by"));
        assertEquals(ProbeQueues.BLOCKING_SHARE_BY, blockingActivation().getString("share_by"));

        Broker.publish(ProbeQueues.RELEASE, "release-" + run, "open");

        List<Delivery> newestFirst = Await.until("all processed", WAIT,
                () -> Api.deliveries(ProbeQueues.BLOCKING, prefix), r -> r.size() == published);
        // blocked one; flood's 1; small-a's 50; small-b's 60; flood's 2, 3, 4, 5; the broker's three
        List<String> expected = new java.util.ArrayList<>(
                IntStream.of(0, 6, 2, 5, 3, 7, 1, 4).mapToObj(i -> prefix + i).toList());
        IntStream.range(prefetch, published).forEach(i -> expected.add(prefix + i));
        List<String> processed = new java.util.ArrayList<>(newestFirst.stream().map(Delivery::body).toList());
        java.util.Collections.reverse(processed);
        assertEquals(expected, processed, "the one taken first, then the window in turns by its header, then the broker's");
        Await.until("queue drained and acked", WAIT, () -> Broker.counts(ProbeQueues.BLOCKING),
                c -> c.ready() == 0 && c.unacked() == 0);
    }

    private static JsonObject blockingActivation() {
        return Api.get("/api/health").json().asJsonObject().getJsonObject("broker").getJsonArray("consumers")
                .getValuesAs(JsonObject.class).stream().filter(c -> c.getString("queue").equals(ProbeQueues.BLOCKING))
                .findFirst().orElseThrow(() -> new AssertionError("no activation consumes " + ProbeQueues.BLOCKING));
    }
}

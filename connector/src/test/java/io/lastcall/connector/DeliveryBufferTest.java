package io.lastcall.connector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Delivery;
import com.rabbitmq.client.Envelope;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DeliveryBufferTest {

    private static final String HEADER = "x-due";
    private static long tags;

    private static Delivery delivery(Object due) {
        Map<String, Object> headers = new HashMap<>();
        if (due != null) {
            headers.put(HEADER, due);
        }
        return new Delivery(new Envelope(++tags, false, "", "q"),
                new AMQP.BasicProperties.Builder().headers(headers).build(), new byte[0]);
    }

    private static List<Long> takeAll(DeliveryBuffer buffer) throws InterruptedException {
        List<Long> tagsInOrder = new ArrayList<>();
        for (DeliveryBuffer.Inbound in = buffer.take(0); in != null; in = buffer.take(0)) {
            tagsInOrder.add(in.delivery().getEnvelope().getDeliveryTag());
        }
        return tagsInOrder;
    }

    @Test
    void withAHeaderTheLowestValueGoesFirstAndEqualValuesInArrivalOrder() throws InterruptedException {
        DeliveryBuffer buffer = new DeliveryBuffer(HEADER);
        long first = tags + 1;
        buffer.add("q", null, delivery(3_000L));
        buffer.add("q", null, delivery(1_000L));
        buffer.add("q", null, delivery(2_000L));
        buffer.add("q", null, delivery(1_000L));
        assertEquals(4, buffer.size());
        assertEquals(List.of(first + 1, first + 3, first + 2, first), takeAll(buffer));
        assertEquals(0, buffer.size());
    }

    @Test
    void aHeaderSentAsTextIsReadAsANumberAndOneMissingCountsAsDueAtArrival() throws InterruptedException {
        DeliveryBuffer buffer = new DeliveryBuffer(HEADER);
        long first = tags + 1;
        long now = System.currentTimeMillis();
        buffer.add("q", null, delivery(Long.toString(now + 60_000)));
        buffer.add("q", null, delivery(null));
        buffer.add("q", null, delivery("not a number"));
        buffer.add("q", null, delivery(now - 60_000));
        assertEquals(List.of(first + 3, first + 1, first + 2, first), takeAll(buffer));
    }

    @Test
    void withoutAHeaderTheBrokersOrderIsKept() throws InterruptedException {
        DeliveryBuffer buffer = new DeliveryBuffer("");
        long first = tags + 1;
        buffer.add("q", null, delivery(3_000L));
        buffer.add("q", null, delivery(1_000L));
        buffer.add("q", null, delivery(2_000L));
        assertEquals(List.of(first, first + 1, first + 2), takeAll(buffer));
    }

    @Test
    void anEmptyBufferAnswersNullAfterTheWait() throws InterruptedException {
        assertNull(new DeliveryBuffer("").take(10));
    }

    @Test
    void arrivalIsTheSettingThatKeepsTheBrokersOrder() {
        RabbitActivationSpec spec = new RabbitActivationSpec();
        spec.setQueue("q");
        spec.setOrderBy("arrival");
        assertEquals("", ConsumerSettings.resolve(spec, ConfigLookup.NONE).orderBy());
        spec.setOrderBy(HEADER);
        assertEquals(HEADER, ConsumerSettings.resolve(spec, ConfigLookup.NONE).orderBy());
        spec.setOrderBy(null);
        assertEquals("", ConsumerSettings.resolve(spec, ConfigLookup.NONE).orderBy());
    }

    // ---- shares ----

    private static final String TENANT = "x-tenant";

    private static Delivery delivery(String tenant, long due) {
        Map<String, Object> headers = new HashMap<>();
        headers.put(HEADER, due);
        headers.put(TENANT, tenant);
        return new Delivery(new Envelope(++tags, false, "", "q"),
                new AMQP.BasicProperties.Builder().headers(headers).build(), new byte[0]);
    }

    private static List<String> tenantsInOrder(DeliveryBuffer buffer, int n) throws InterruptedException {
        List<String> tenants = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            tenants.add(buffer.take(0).delivery().getProperties().getHeaders().get(TENANT).toString());
        }
        return tenants;
    }

    @Test
    void aTenantThatFloodsTakesTurnsWithTheOthersEvenWithEarlierDeadlines() throws InterruptedException {
        DeliveryBuffer buffer = new DeliveryBuffer(HEADER, TENANT, Map.of());
        for (int i = 0; i < 100; i++) {
            buffer.add("q", null, delivery("flood", 1_000 + i));
        }
        for (int i = 0; i < 10; i++) {
            buffer.add("q", null, delivery("small-1", 5_000 + i));
            buffer.add("q", null, delivery("small-2", 5_000 + i));
        }
        List<String> first30 = tenantsInOrder(buffer, 30);
        for (String tenant : List.of("flood", "small-1", "small-2")) {
            assertEquals(10, first30.stream().filter(tenant::equals).count(), first30.toString());
        }
        assertEquals(List.of("flood", "flood", "flood"), tenantsInOrder(buffer, 3));
    }

    @Test
    void withinATenantTheOrderHeaderDecides() throws InterruptedException {
        DeliveryBuffer buffer = new DeliveryBuffer(HEADER, TENANT, Map.of());
        buffer.add("q", null, delivery("a", 3_000));
        buffer.add("q", null, delivery("b", 9_000));
        buffer.add("q", null, delivery("a", 1_000));
        buffer.add("q", null, delivery("b", 2_000));
        List<Long> dues = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            dues.add(((Number) buffer.take(0).delivery().getProperties().getHeaders().get(HEADER)).longValue());
        }
        // both start even: the lower head goes first (a's 1,000), then b's 2,000, a's 3,000, b's 9,000
        assertEquals(List.of(1_000L, 2_000L, 3_000L, 9_000L), dues);
    }

    @Test
    void weightsGiveSharesInProportion() throws InterruptedException {
        DeliveryBuffer buffer = new DeliveryBuffer(HEADER, TENANT, Map.of("gold", 3.0));
        for (int i = 0; i < 100; i++) {
            buffer.add("q", null, delivery("gold", 1_000 + i));
            buffer.add("q", null, delivery("plain", 1_000 + i));
        }
        List<String> first40 = tenantsInOrder(buffer, 40);
        assertEquals(30, first40.stream().filter("gold"::equals).count(), first40.toString());
    }

    @Test
    void aTenantThatWasIdleEarnsNoCredit() throws InterruptedException {
        DeliveryBuffer buffer = new DeliveryBuffer(HEADER, TENANT, Map.of());
        for (int i = 0; i < 30; i++) {
            buffer.add("q", null, delivery("busy", 1_000 + i));
        }
        tenantsInOrder(buffer, 20);
        for (int i = 0; i < 10; i++) {
            buffer.add("q", null, delivery("late", 500 + i));
        }
        // not ten of "late" in a row for the twenty "busy" had alone: it starts at the virtual time of
        // the last delivery taken (busy's 20th), one turn before busy's 21st, and they alternate from there
        assertEquals(List.of("late", "late", "busy", "late", "busy", "late", "busy", "late", "busy", "late"),
                tenantsInOrder(buffer, 10));
    }

    @Test
    void aDeliveryWithoutTheShareHeaderIsAShareOfItsOwn() throws InterruptedException {
        DeliveryBuffer buffer = new DeliveryBuffer(HEADER, TENANT, Map.of());
        for (int i = 0; i < 4; i++) {
            buffer.add("q", null, delivery("a", 1_000 + i));
        }
        long untagged = tags + 1;
        buffer.add("q", null, delivery(5_000L));
        buffer.take(0);
        assertEquals(untagged, buffer.take(0).delivery().getEnvelope().getDeliveryTag());
    }

    @Test
    void shareWeightsAreValidatedWithTheirProperty() {
        RabbitActivationSpec spec = new RabbitActivationSpec();
        spec.setQueue("q");
        spec.setShareBy(TENANT);
        spec.setShareWeights("gold=3, silver = 1.5");
        ConsumerSettings settings = ConsumerSettings.resolve(spec, ConfigLookup.NONE);
        assertEquals(TENANT, settings.shareBy());
        assertEquals(Map.of("gold", 3.0, "silver", 1.5), settings.shareWeights());
        for (String wrong : List.of("gold", "gold=0", "gold=-1", "=2", "gold=much", "gold=1001")) {
            spec.setShareWeights(wrong);
            IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> ConsumerSettings.resolve(spec, ConfigLookup.NONE));
            org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("share-weights"), e.getMessage());
        }
    }
}

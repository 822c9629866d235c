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
}

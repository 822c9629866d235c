package io.lastcall.connector;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Delivery;
import com.rabbitmq.client.Envelope;
import com.rabbitmq.client.impl.LongStringHelper;
import jakarta.jms.BytesMessage;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JmsMessagesTest {

    private static Delivery delivery(boolean redelivered, AMQP.BasicProperties props, byte[] body) {
        return new Delivery(new Envelope(7, redelivered, "ex", "rk"), props, body);
    }

    @Test
    void utf8BodyBecomesATextMessageWithTheEnvelope() throws Exception {
        AMQP.BasicProperties props = new AMQP.BasicProperties.Builder().messageId("m-1").deliveryMode(2)
                .expiration("5000").contentType("application/json")
                .headers(Map.of("x-first-death-reason", LongStringHelper.asLongString("expired"),
                        "x-death", List.of(Map.of("count", 1L)), "attempt", 3))
                .build();
        Message m = JmsMessages.toJms(delivery(true, props, "{\"a\":1}".getBytes(StandardCharsets.UTF_8)), "q", 2);
        assertEquals("{\"a\":1}", assertInstanceOf(TextMessage.class, m).getText());
        assertEquals("ID:m-1", m.getJMSMessageID());
        assertTrue(m.getJMSRedelivered());
        assertEquals(DeliveryMode.PERSISTENT, m.getJMSDeliveryMode());
        assertEquals("expired", m.getStringProperty("x-first-death-reason"));
        assertTrue(m.getStringProperty("x-death").contains("count"));
        assertEquals(3, m.getIntProperty("attempt"));
        assertEquals("q", m.getStringProperty("amqp_queue"));
        assertEquals("ex", m.getStringProperty("amqp_exchange"));
        assertEquals("rk", m.getStringProperty("amqp_routing_key"));
        assertEquals("5000", m.getStringProperty("amqp_expiration"));
        assertEquals(2, m.getIntProperty("amqp_failed_deliveries"));
    }

    @Test
    void binaryBodyBecomesABytesMessage() throws Exception {
        byte[] body = {(byte) 0xff, 0, (byte) 0xfe};
        Message m = JmsMessages.toJms(delivery(false, new AMQP.BasicProperties(), body), "q", 0);
        BytesMessage bytes = assertInstanceOf(BytesMessage.class, m);
        byte[] read = new byte[(int) bytes.getBodyLength()];
        bytes.readBytes(read);
        assertArrayEquals(body, read);
        assertEquals(DeliveryMode.NON_PERSISTENT, m.getJMSDeliveryMode());
    }

    @Test
    void withoutAMessageIdTheKeyIsADigestOfTheBody() {
        AMQP.BasicProperties none = new AMQP.BasicProperties();
        String a = JmsMessages.key(delivery(false, none, "a".getBytes(StandardCharsets.UTF_8)));
        assertEquals(a, JmsMessages.key(delivery(true, none, "a".getBytes(StandardCharsets.UTF_8))));
        assertNotEquals(a, JmsMessages.key(delivery(false, none, "b".getBytes(StandardCharsets.UTF_8))));
        assertTrue(a.startsWith("sha256:"));
    }

    @Test
    void quorumDeliveryCountIsRead() {
        AMQP.BasicProperties props = new AMQP.BasicProperties.Builder().headers(Map.of("x-delivery-count", 4L)).build();
        assertEquals(4, JmsMessages.brokerDeliveryCount(delivery(true, props, new byte[0])));
        assertEquals(null, JmsMessages.brokerDeliveryCount(delivery(true, new AMQP.BasicProperties(), new byte[0])));
    }

    @Test
    void headerNamesNoJmsPropertyMayHaveAreLeftOutAndNamedNotThrown() throws Exception {
        java.util.Map<String, Object> headers = new java.util.LinkedHashMap<>();
        headers.put(" ", "x");
        headers.put("1a", "y");
        headers.put("ok", "z");
        AMQP.BasicProperties props = new AMQP.BasicProperties.Builder().messageId("m-2").headers(headers).build();
        Message m = JmsMessages.toJms(delivery(false, props, "{}".getBytes(StandardCharsets.UTF_8)), "q", 0);
        assertEquals("z", m.getStringProperty("ok"));
        String error = m.getStringProperty(JmsMessages.PROP_CONVERSION_ERROR);
        assertTrue(error.contains("' '") && error.contains("'1a'"), error);
        assertEquals("{}", assertInstanceOf(TextMessage.class, m).getText());
    }

    @Test
    void anUnconvertibleDeliveryStillCarriesItsBodyQueueAndWhy() throws Exception {
        Message m = JmsMessages.unreadable(delivery(true, new AMQP.BasicProperties(), "b".getBytes(StandardCharsets.UTF_8)),
                "q", new IllegalArgumentException("bad"));
        assertEquals("q", m.getStringProperty("amqp_queue"));
        assertTrue(m.getStringProperty(JmsMessages.PROP_CONVERSION_ERROR).contains("bad"));
        assertEquals(1, ((BytesMessage) m).getBodyLength());
    }

    @Test
    void theLastDeathReasonIsTheNewestEntryOfXDeathNotTheFirstDeath() throws Exception {
        Map<String, Object> headers = Map.of(
                "x-first-death-reason", LongStringHelper.asLongString("expired"),
                "x-death", List.of(Map.of("reason", LongStringHelper.asLongString("rejected"), "count", 1L),
                        Map.of("reason", LongStringHelper.asLongString("expired"), "count", 1L)));
        AMQP.BasicProperties props = new AMQP.BasicProperties.Builder().headers(headers).build();
        Message m = JmsMessages.toJms(delivery(false, props, "{}".getBytes(StandardCharsets.UTF_8)), "q", 0);
        assertEquals("rejected", m.getStringProperty(JmsMessages.PROP_LAST_DEATH_REASON));
        assertEquals("maxlen", JmsMessages.lastDeathReason(Map.of("x-last-death-reason", "maxlen",
                "x-death", List.of(Map.of("reason", "expired")))));
    }
}

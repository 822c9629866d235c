package io.lastcall.connector;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Delivery;
import com.rabbitmq.client.LongString;
import com.rabbitmq.jms.client.RMQMessage;
import com.rabbitmq.jms.client.message.RMQBytesMessage;
import com.rabbitmq.jms.client.message.RMQTextMessage;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Date;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Turns one AMQP delivery into a Jakarta Messaging message: a TextMessage when the body is valid
 * UTF-8, a BytesMessage otherwise. AMQP headers become properties under their own names; the
 * envelope is exposed as {@code amqp_*} properties. Conversion never fails on what a producer
 * sent: a header whose name no JMS property may have (blank, starting with a digit, a reserved
 * word) is left out and named in {@code amqp_conversion_error}, and a delivery that cannot be
 * converted at all still reaches the endpoint as its body and queue plus that property, so the
 * application can quarantine it instead of the consumer dying on it.
 */
final class JmsMessages {

    static final String PROP_QUEUE = "amqp_queue";
    static final String PROP_EXCHANGE = "amqp_exchange";
    static final String PROP_ROUTING_KEY = "amqp_routing_key";
    static final String PROP_EXPIRATION = "amqp_expiration";
    static final String PROP_CONTENT_TYPE = "amqp_content_type";
    static final String PROP_FAILED_DELIVERIES = "amqp_failed_deliveries";
    static final String PROP_CONVERSION_ERROR = "amqp_conversion_error";
    /** the reason of the most recent dead-lettering (x-death is newest first; x-first-death-* is the oldest) */
    static final String PROP_LAST_DEATH_REASON = "amqp_last_death_reason";

    private JmsMessages() {
    }

    /** Stable identity across redeliveries: the AMQP message-id, else a digest of the body. */
    static String key(Delivery delivery) {
        String id = delivery.getProperties().getMessageId();
        return id != null && !id.isBlank() ? id : "sha256:" + sha256(delivery.getBody());
    }

    /** The broker's delivery count (quorum queues), or null. */
    static Integer brokerDeliveryCount(Delivery delivery) {
        Map<String, Object> headers = delivery.getProperties().getHeaders();
        Object count = headers == null ? null : headers.get("x-delivery-count");
        return count instanceof Number n ? n.intValue() : null;
    }

    static Message toJms(Delivery delivery, String queue, int failedSoFar) throws JMSException {
        byte[] body = delivery.getBody();
        String text = utf8OrNull(body);
        RMQMessage message;
        if (text != null) {
            RMQTextMessage textMessage = new RMQTextMessage();
            textMessage.setText(text);
            message = textMessage;
        } else {
            RMQBytesMessage bytesMessage = new RMQBytesMessage();
            bytesMessage.writeBytes(body);
            bytesMessage.reset();
            message = bytesMessage;
        }
        AMQP.BasicProperties props = delivery.getProperties();
        String key = key(delivery);
        message.setJMSMessageID(key.startsWith("ID:") ? key : "ID:" + key);
        message.setJMSRedelivered(delivery.getEnvelope().isRedeliver());
        message.setJMSTimestamp(props.getTimestamp() == null ? 0L : props.getTimestamp().getTime());
        message.setJMSDeliveryMode(Integer.valueOf(2).equals(props.getDeliveryMode())
                ? DeliveryMode.PERSISTENT : DeliveryMode.NON_PERSISTENT);
        if (props.getCorrelationId() != null) {
            message.setJMSCorrelationID(props.getCorrelationId());
        }
        if (props.getType() != null) {
            message.setJMSType(props.getType());
        }
        if (props.getPriority() != null) {
            message.setJMSPriority(Math.max(0, Math.min(9, props.getPriority())));
        }
        List<String> refused = new ArrayList<>();
        if (props.getHeaders() != null) {
            for (Map.Entry<String, Object> header : props.getHeaders().entrySet()) {
                try {
                    setProperty(message, header.getKey(), header.getValue());
                } catch (JMSException | RuntimeException e) {
                    refused.add("'" + printable(header.getKey()) + "'");
                }
            }
        }
        if (!refused.isEmpty()) {
            message.setStringProperty(PROP_CONVERSION_ERROR, "AMQP header names that are not valid JMS property"
                    + " names: " + String.join(", ", refused));
        }
        String lastDeath = lastDeathReason(props.getHeaders());
        if (lastDeath != null) {
            message.setStringProperty(PROP_LAST_DEATH_REASON, lastDeath);
        }
        message.setStringProperty(PROP_QUEUE, queue);
        message.setStringProperty(PROP_EXCHANGE, delivery.getEnvelope().getExchange());
        message.setStringProperty(PROP_ROUTING_KEY, delivery.getEnvelope().getRoutingKey());
        message.setIntProperty(PROP_FAILED_DELIVERIES, failedSoFar);
        if (props.getExpiration() != null) {
            message.setStringProperty(PROP_EXPIRATION, props.getExpiration());
        }
        if (props.getContentType() != null) {
            message.setStringProperty(PROP_CONTENT_TYPE, props.getContentType());
        }
        return message;
    }

    /**
     * The delivery as far as it can be taken when {@link #toJms} failed: its body, queue and
     * redelivery flag, and why the rest could not be converted.
     */
    static Message unreadable(Delivery delivery, String queue, Throwable why) throws JMSException {
        RMQBytesMessage message = new RMQBytesMessage();
        message.writeBytes(delivery.getBody() == null ? new byte[0] : delivery.getBody());
        message.reset();
        message.setJMSMessageID("ID:" + printable(key(delivery)));
        message.setJMSRedelivered(delivery.getEnvelope().isRedeliver());
        message.setStringProperty(PROP_QUEUE, queue);
        message.setStringProperty(PROP_CONVERSION_ERROR, "the delivery could not be converted: " + why);
        return message;
    }

    /** x-last-death-reason (RabbitMQ 3.13+), else the reason of x-death's first (newest) entry. */
    static String lastDeathReason(Map<String, Object> headers) {
        if (headers == null) {
            return null;
        }
        Object last = headers.get("x-last-death-reason");
        if (last != null) {
            return last.toString();
        }
        if (headers.get("x-death") instanceof List<?> deaths && !deaths.isEmpty()
                && deaths.get(0) instanceof Map<?, ?> newest && newest.get("reason") != null) {
            return newest.get("reason").toString();
        }
        return null;
    }

    private static String printable(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder out = new StringBuilder();
        s.codePoints().limit(100).forEach(c -> out.append(Character.isISOControl(c) ? "?" : Character.toString(c)));
        return out.toString();
    }

    private static void setProperty(Message message, String name, Object value) throws JMSException {
        if (value == null || name == null || name.isEmpty()) {
            return;
        }
        if (value instanceof LongString || value instanceof String) {
            message.setStringProperty(name, value.toString());
        } else if (value instanceof Integer || value instanceof Long || value instanceof Short
                || value instanceof Byte || value instanceof Double || value instanceof Float
                || value instanceof Boolean) {
            message.setObjectProperty(name, value);
        } else if (value instanceof Date date) {
            message.setLongProperty(name, date.getTime());
        } else {
            // tables and arrays (x-death) arrive flattened, as the RabbitMQ JMS client does
            message.setStringProperty(name, value.toString());
        }
    }

    private static String utf8OrNull(byte[] body) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    private static String sha256(byte[] body) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body), 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always present", e);
        }
    }
}

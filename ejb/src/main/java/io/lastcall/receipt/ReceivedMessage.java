package io.lastcall.receipt;

import io.lastcall.job.ReferenceCheck;
import io.lastcall.job.Untrusted;
import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;
import java.util.Base64;
import java.util.Optional;
import java.util.Set;

/**
 * What lastcall keeps of a delivered message, taken off the JMS message at receipt. A non-text
 * body is kept base64-encoded, prefixed {@code base64:}. Taking it never fails: a message the
 * adapter could not convert fully, or whose properties cannot be read, comes back with
 * {@code unreadable} saying why (and is quarantined, never retried).
 */
public record ReceivedMessage(String messageId, String queue, String body, long receivedAt, boolean redelivered,
        String deathReason, String unreadable) {

    /** Set by the lastcall connector on every message: the AMQP queue it was consumed from. */
    public static final String QUEUE_PROPERTY = "amqp_queue";
    /** Set by the connector when part of the delivery could not become a JMS message. */
    public static final String CONVERSION_ERROR_PROPERTY = "amqp_conversion_error";
    /** Set by the connector on a dead-lettered message: the reason of its most recent death. */
    public static final String LAST_DEATH_REASON_PROPERTY = "amqp_last_death_reason";

    public static ReceivedMessage from(Message message, long receivedAt) {
        String id = "";
        String queue = "";
        String body = null;
        boolean redelivered = false;
        String deathReason = null;
        String unreadable = null;
        try {
            id = message.getJMSMessageID() == null ? "" : message.getJMSMessageID();
            queue = stringProperty(message, QUEUE_PROPERTY);
            redelivered = message.getJMSRedelivered();
            deathReason = stringProperty(message, LAST_DEATH_REASON_PROPERTY);
            unreadable = stringProperty(message, CONVERSION_ERROR_PROPERTY);
            body = bodyOf(message);
        } catch (JMSException | RuntimeException e) {
            unreadable = "unreadable JMS message: " + e;
        }
        return new ReceivedMessage(Untrusted.text(id, 200), Untrusted.text(queue == null ? "" : queue, 255),
                Untrusted.text(body, Untrusted.MAX_BODY_CHARS), receivedAt, redelivered, deathReason, unreadable);
    }

    /** The job this message names, if it is readable and a reference of a supported schema (what a group locks first). */
    public Optional<String> referencedJobId(Set<Integer> schemaVersions) {
        if (unreadable != null) {
            return Optional.empty();
        }
        ReferenceCheck.Verdict verdict = ReferenceCheck.parse(body, schemaVersions);
        return verdict.trusted() ? Optional.of(verdict.reference().jobId()) : Optional.empty();
    }

    private static String stringProperty(Message message, String name) throws JMSException {
        return message.propertyExists(name) ? message.getStringProperty(name) : null;
    }

    private static String bodyOf(Message message) throws JMSException {
        if (message instanceof TextMessage text) {
            return text.getText();
        }
        if (message instanceof BytesMessage bytes) {
            byte[] data = new byte[(int) Math.min(bytes.getBodyLength(), Untrusted.MAX_BODY_CHARS)];
            bytes.readBytes(data);
            return "base64:" + Base64.getEncoder().encodeToString(data);
        }
        return null;
    }
}

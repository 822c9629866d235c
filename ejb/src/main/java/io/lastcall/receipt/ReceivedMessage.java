package io.lastcall.receipt;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;
import java.util.Base64;

/**
 * What lastcall keeps of a delivered message, taken off the JMS message at receipt.
 * A non-text body is kept base64-encoded, prefixed {@code base64:}.
 */
public record ReceivedMessage(String messageId, String queue, String body, long receivedAt, boolean redelivered) {

    /** Set by the lastcall connector on every message: the AMQP queue it was consumed from. */
    public static final String QUEUE_PROPERTY = "amqp_queue";

    public static ReceivedMessage from(Message message, long receivedAt) {
        try {
            return new ReceivedMessage(
                    message.getJMSMessageID() == null ? "" : message.getJMSMessageID(),
                    message.propertyExists(QUEUE_PROPERTY) ? message.getStringProperty(QUEUE_PROPERTY) : "",
                    bodyOf(message),
                    receivedAt,
                    message.getJMSRedelivered());
        } catch (JMSException e) {
            throw new IllegalArgumentException("Unreadable JMS message: " + e.getMessage(), e);
        }
    }

    private static String bodyOf(Message message) throws JMSException {
        if (message instanceof TextMessage text) {
            return text.getText();
        }
        if (message instanceof BytesMessage bytes) {
            byte[] data = new byte[(int) bytes.getBodyLength()];
            bytes.readBytes(data);
            return "base64:" + Base64.getEncoder().encodeToString(data);
        }
        return null;
    }
}

package io.lastcall.dispatch;

import io.lastcall.policy.Settings;
import io.lastcall.receipt.ReceivedMessage;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.EJB;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/**
 * Reads the dead-letter queue ({@code lastcall.dead-letter.*}) and records each dead-lettered
 * job's outcome from the ledger's own deadline. It never republishes.
 */
@MessageDriven(name = "DeadLetterMdb", activationConfig = {
    @ActivationConfigProperty(propertyName = "connectionConfig", propertyValue = "lastcall.broker"),
    @ActivationConfigProperty(propertyName = "consumerConfig", propertyValue = "lastcall.dead-letter"),
    @ActivationConfigProperty(propertyName = "queue", propertyValue = "lastcall.dead"),
    @ActivationConfigProperty(propertyName = "prefetch", propertyValue = "10"),
    @ActivationConfigProperty(propertyName = "consumers", propertyValue = "1"),
    @ActivationConfigProperty(propertyName = "maxRedeliveries", propertyValue = "5")
})
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class DeadLetterMdb implements MessageListener {

    /** Set by RabbitMQ on dead-lettering: expired, rejected, maxlen or delivery_limit. */
    static final String DEATH_REASON = "x-first-death-reason";

    @EJB
    private JobLedger ledger;

    @Inject
    private Settings settings;

    @Override
    public void onMessage(Message message) {
        long now = System.currentTimeMillis();
        ledger.deadLettered(ReceivedMessage.from(message, now), deathReason(message), settings.schemaVersions(), now);
    }

    private static String deathReason(Message message) {
        try {
            return message.propertyExists(DEATH_REASON) ? message.getStringProperty(DEATH_REASON) : "unknown";
        } catch (JMSException e) {
            return "unknown";
        }
    }
}

package io.lastcall.dispatch;

import io.lastcall.receipt.ReceivedMessage;
import io.lastcall.policy.Defaults;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.EJB;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/**
 * Reads the dead-letter queue ({@code lastcall.dead-letter.*}) and hands each message to
 * {@link DeadLetters}; an {@link InfrastructureFailure} holds the message back (the adapter's
 * {@code pauseOn}).
 */
@MessageDriven(name = "DeadLetterMdb", activationConfig = {
    @ActivationConfigProperty(propertyName = "connectionConfig", propertyValue = "lastcall.broker"),
    @ActivationConfigProperty(propertyName = "consumerConfig", propertyValue = "lastcall.dead-letter"),
    @ActivationConfigProperty(propertyName = "queue", propertyValue = Defaults.DEAD_LETTER_QUEUE),
    @ActivationConfigProperty(propertyName = "prefetch", propertyValue = "10"),
    @ActivationConfigProperty(propertyName = "consumers", propertyValue = "1"),
    @ActivationConfigProperty(propertyName = "maxRedeliveries", propertyValue = "1000"),
    @ActivationConfigProperty(propertyName = "pauseOn", propertyValue = "io.lastcall.dispatch.InfrastructureFailure")
})
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class DeadLetterMdb implements MessageListener {

    @EJB
    private DeadLetters deadLetters;

    @Override
    public void onMessage(Message jms) {
        deadLetters.handle(ReceivedMessage.from(jms, System.currentTimeMillis()));
    }
}

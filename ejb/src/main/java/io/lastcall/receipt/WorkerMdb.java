package io.lastcall.receipt;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.EJB;
import jakarta.ejb.MessageDriven;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/**
 * Consumes the worker queue through the lastcall RabbitMQ adapter (bound in
 * glassfish-ejb-jar.xml). Broker and consumer settings come from MicroProfile Config under
 * {@code lastcall.broker.*} and {@code lastcall.worker.*}; the values below are defaults.
 * Container-managed (REQUIRED): the message is acknowledged only after the record commits.
 */
@MessageDriven(name = "WorkerMdb", activationConfig = {
    @ActivationConfigProperty(propertyName = "connectionConfig", propertyValue = "lastcall.broker"),
    @ActivationConfigProperty(propertyName = "consumerConfig", propertyValue = "lastcall.worker"),
    @ActivationConfigProperty(propertyName = "queue", propertyValue = "lastcall.work"),
    @ActivationConfigProperty(propertyName = "prefetch", propertyValue = "10"),
    @ActivationConfigProperty(propertyName = "consumers", propertyValue = "2"),
    @ActivationConfigProperty(propertyName = "maxRedeliveries", propertyValue = "5")
})
public class WorkerMdb implements MessageListener {

    @EJB
    private DeliveryLog deliveries;

    @Override
    public void onMessage(Message message) {
        deliveries.record(ReceivedMessage.from(message, System.currentTimeMillis()));
    }
}

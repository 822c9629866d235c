package io.lastcall.it.probe;

import io.lastcall.receipt.DeliveryLog;
import io.lastcall.receipt.ReceivedMessage;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.EJB;
import jakarta.ejb.MessageDriven;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/** REQUIRED, one consumer, prefetch 2: 300 ms per message, so an undeploy finds work in flight. */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = "lastcall#lastcall-connector"),
    @ActivationConfigProperty(propertyName = "queue", propertyValue = ProbeQueues.SLOW),
    @ActivationConfigProperty(propertyName = "prefetch", propertyValue = "2"),
    @ActivationConfigProperty(propertyName = "consumers", propertyValue = "1"),
    @ActivationConfigProperty(propertyName = "reconnectMaxDelayMs", propertyValue = "1000")
})
public class SlowProbeMdb implements MessageListener {

    @EJB
    DeliveryLog log;

    @Override
    public void onMessage(Message message) {
        try {
            Thread.sleep(300);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        log.record(ReceivedMessage.from(message, System.currentTimeMillis()));
    }
}

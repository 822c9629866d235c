package io.lastcall.it.probe;

import io.lastcall.receipt.DeliveryLog;
import io.lastcall.receipt.ReceivedMessage;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.EJB;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/** NOT_SUPPORTED, one consumer, prefetch 8, ordered by a header and shared by another: blocks every delivery until the gate opens. */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = "lastcall#lastcall-connector"),
    @ActivationConfigProperty(propertyName = "queue", propertyValue = ProbeQueues.BLOCKING),
    @ActivationConfigProperty(propertyName = "prefetch", propertyValue = "" + ProbeQueues.BLOCKING_PREFETCH),
    @ActivationConfigProperty(propertyName = "consumers", propertyValue = "1"),
    @ActivationConfigProperty(propertyName = "orderBy", propertyValue = ProbeQueues.BLOCKING_ORDER_BY),
    @ActivationConfigProperty(propertyName = "shareBy", propertyValue = ProbeQueues.BLOCKING_SHARE_BY),
    @ActivationConfigProperty(propertyName = "reconnectMaxDelayMs", propertyValue = "1000"),
    @ActivationConfigProperty(propertyName = "shutdownTimeoutMs", propertyValue = "2000")
})
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class BlockingProbeMdb implements MessageListener {

    @EJB
    ProbeGate gate;

    @EJB
    DeliveryLog log;

    @Override
    public void onMessage(Message message) {
        try {
            gate.awaitOpen();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while blocked", e);
        }
        log.record(ReceivedMessage.from(message, System.currentTimeMillis()));
    }
}

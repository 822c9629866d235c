package io.lastcall.it.probe;

import io.lastcall.receipt.DeliveryLog;
import io.lastcall.receipt.ReceivedMessage;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.EJB;
import jakarta.ejb.MessageDriven;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/**
 * REQUIRED. Records the delivery, then throws for bodies "fail-first:..." on a first delivery and
 * "fail-always:..." on every delivery, so the record must roll back with the transaction.
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = "lastcall#lastcall-connector"),
    @ActivationConfigProperty(propertyName = "queue", propertyValue = ProbeQueues.FLAKY),
    @ActivationConfigProperty(propertyName = "prefetch", propertyValue = "1"),
    @ActivationConfigProperty(propertyName = "maxRedeliveries", propertyValue = "" + ProbeQueues.FLAKY_MAX_REDELIVERIES),
    @ActivationConfigProperty(propertyName = "reconnectMaxDelayMs", propertyValue = "1000")
})
public class FlakyProbeMdb implements MessageListener {

    @EJB
    DeliveryLog log;

    @EJB
    AttemptRecorder attempts;

    @Override
    public void onMessage(Message message) {
        ReceivedMessage received = ReceivedMessage.from(message, System.currentTimeMillis());
        attempts.attempt(received, ProbeQueues.FLAKY_ATTEMPTS);
        log.record(received);
        String body = received.body();
        if (body.startsWith("fail-always:") || (body.startsWith("fail-first:") && !received.redelivered())) {
            throw new IllegalStateException("probe failure for " + body);
        }
    }
}

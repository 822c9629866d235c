package io.lastcall.it.probe;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.EJB;
import jakarta.ejb.MessageDriven;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/** Any message on it.release opens the gate the blocking probe waits on. */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = "lastcall#lastcall-connector"),
    @ActivationConfigProperty(propertyName = "queue", propertyValue = ProbeQueues.RELEASE),
    @ActivationConfigProperty(propertyName = "reconnectMaxDelayMs", propertyValue = "1000")
})
public class ReleaseProbeMdb implements MessageListener {

    @EJB
    ProbeGate gate;

    @Override
    public void onMessage(Message message) {
        gate.open();
    }
}

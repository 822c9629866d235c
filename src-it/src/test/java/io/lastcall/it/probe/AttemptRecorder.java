package io.lastcall.it.probe;

import io.lastcall.receipt.DeliveryLog;
import io.lastcall.receipt.ReceivedMessage;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;

/** Records a delivery attempt in a transaction of its own, which the delivery's rollback cannot undo. */
@Stateless
public class AttemptRecorder {

    @EJB
    DeliveryLog log;

    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void attempt(ReceivedMessage message, String asQueue) {
        log.record(new ReceivedMessage(message.messageId(), asQueue, message.body(), message.receivedAt(),
                message.redelivered(), message.deathReason(), message.unreadable()));
    }
}

package io.lastcall.dispatch;

import io.lastcall.clock.ClockHealth;
import io.lastcall.ingress.JobPublisher;
import io.lastcall.job.Job;
import io.lastcall.job.QuarantinedMessage;
import io.lastcall.policy.Settings;
import io.lastcall.receipt.ReceivedMessage;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.EJB;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import java.util.Optional;

/**
 * Reads the dead-letter queue ({@code lastcall.dead-letter.*}) and hands each message to
 * {@link DeadLetterLedger}, which decides from the ledger's own deadline. It never loses a
 * message it could not record: an infrastructure failure holds the message back (the adapter's
 * {@code pauseOn}); any other failure keeps the message in the quarantine (reason
 * {@code DEAD_LETTER_UNRECORDABLE}) before it is acknowledged.
 */
@MessageDriven(name = "DeadLetterMdb", activationConfig = {
    @ActivationConfigProperty(propertyName = "connectionConfig", propertyValue = "lastcall.broker"),
    @ActivationConfigProperty(propertyName = "consumerConfig", propertyValue = "lastcall.dead-letter"),
    @ActivationConfigProperty(propertyName = "queue", propertyValue = "lastcall.dead"),
    @ActivationConfigProperty(propertyName = "prefetch", propertyValue = "10"),
    @ActivationConfigProperty(propertyName = "consumers", propertyValue = "1"),
    @ActivationConfigProperty(propertyName = "maxRedeliveries", propertyValue = "1000"),
    @ActivationConfigProperty(propertyName = "pauseOn", propertyValue = "io.lastcall.dispatch.InfrastructureFailure")
})
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class DeadLetterMdb implements MessageListener {

    @EJB
    private DeadLetterLedger ledger;

    @EJB
    private Quarantine quarantine;

    @EJB
    private JobPublisher publisher;

    @EJB
    private FailureTriage triage;

    @EJB
    private ClockHealth clockHealth;

    @Inject
    private Settings settings;

    @Override
    public void onMessage(Message jms) {
        ReceivedMessage message = ReceivedMessage.from(jms, System.currentTimeMillis());
        String reason = message.deathReason() == null ? "unknown" : message.deathReason();
        Optional<Job> republish;
        try {
            republish = ledger.deadLettered(message, reason, settings.schemaVersions(),
                    settings.clockUncertaintyMs() + clockHealth.extraMarginMs());
        } catch (RuntimeException e) {
            RuntimeException triaged = triage.classify(e, "recording dead-lettered message " + message.messageId());
            if (triaged instanceof InfrastructureFailure) {
                throw triaged;
            }
            try {
                quarantine.recordAlone(message, null, QuarantinedMessage.Reason.DEAD_LETTER_UNRECORDABLE,
                        "dead-lettered (" + reason + ") but not recordable: " + e, System.currentTimeMillis());
            } catch (RuntimeException stillFailing) {
                throw new InfrastructureFailure("cannot even quarantine dead-lettered message "
                        + message.messageId() + ": " + stillFailing, stillFailing);
            }
            return;
        }
        // the TTL cap, not the deadline, expired it: back to its queue with the remaining lifetime
        republish.ifPresent(job -> publisher.publish(job.getJobId(), job.getWorkload(), 0));
    }
}

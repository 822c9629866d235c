package io.lastcall.dispatch;

import io.lastcall.job.Reference;
import io.lastcall.policy.Defaults;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import io.lastcall.receipt.ReceivedMessage;

/**
 * Consumes the worker queue through the lastcall RabbitMQ adapter (bound in
 * glassfish-ejb-jar.xml) and hands each reference to the {@link Worker}. Broker and consumer
 * settings come from MicroProfile Config under {@code lastcall.broker.*} and
 * {@code lastcall.worker.*}; the values below are defaults. It consumes one queue per workload
 * ({@code lastcall.worker.queue} lists them, comma-separated). The adapter holds up to
 * consumers × prefetch unacknowledged deliveries of each queue and hands them to the consumers
 * earliest expiry first (the reference's expiry header), so earliest-deadline-first reaches over
 * that whole window, not only over the jobs waiting for a permit; the tenants (the reference's tenant
 * header) take turns at that window by weight ({@code lastcall.worker.share-weights}), each in
 * deadline order, so one that floods the queue cannot take it from the others. NOT_SUPPORTED: the worker runs its
 * own short transactions and none spans the model call; the message is acknowledged when
 * {@code onMessage} returns. An {@link InfrastructureFailure} makes the adapter hold the message
 * and back off ({@code pauseOn}) rather than count a redelivery.
 */
@MessageDriven(name = "WorkerMdb", activationConfig = {
    @ActivationConfigProperty(propertyName = "connectionConfig", propertyValue = "lastcall.broker"),
    @ActivationConfigProperty(propertyName = "consumerConfig", propertyValue = "lastcall.worker"),
    @ActivationConfigProperty(propertyName = "queue", propertyValue = Defaults.WORKER_QUEUES),
    @ActivationConfigProperty(propertyName = "prefetch", propertyValue = "250"),
    @ActivationConfigProperty(propertyName = "orderBy", propertyValue = Reference.EXPIRES_AT_HEADER),
    @ActivationConfigProperty(propertyName = "shareBy", propertyValue = Reference.TENANT_HEADER),
    @ActivationConfigProperty(propertyName = "consumers", propertyValue = "4"),
    @ActivationConfigProperty(propertyName = "maxRedeliveries", propertyValue = "5"),
    @ActivationConfigProperty(propertyName = "pauseOn", propertyValue = "io.lastcall.dispatch.InfrastructureFailure")
})
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class WorkerMdb implements MessageListener {

    @Inject
    private Worker worker;

    @Override
    public void onMessage(Message message) {
        worker.process(ReceivedMessage.from(message, System.currentTimeMillis()));
    }
}

package io.lastcall.connector;

import jakarta.resource.NotSupportedException;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.BootstrapContext;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import jakarta.resource.spi.work.WorkException;
import jakarta.resource.spi.work.WorkManager;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;

/** One MDB activation: its settings, its consumers and its status. */
final class RabbitActivation {

    private static final Logger LOG = Logger.getLogger(RabbitActivation.class.getName());

    private final ConsumerSettings settings;
    private final ActivationStatus status;
    private final List<ConsumerWork> works = new ArrayList<>();

    RabbitActivation(BootstrapContext context, MessageEndpointFactory factory, ConsumerSettings settings)
            throws ResourceException {
        this.settings = settings;
        TransactionSynchronizationRegistry registry = context.getTransactionSynchronizationRegistry();
        EndpointDelivery endpoint = new EndpointDelivery(factory, registry, settings.pauseOnExceptions());
        if (endpoint.transacted() && registry == null) {
            throw new NotSupportedException("MDB on queue '" + settings.queue() + "' is transacted, but the"
                    + " container offers no TransactionSynchronizationRegistry, so commits cannot be observed"
                    + " before acknowledging; use NOT_SUPPORTED or a container that offers one");
        }
        RedeliveryTracker tracker = new RedeliveryTracker(settings.maxRedeliveries());
        DeliveryBuffer buffer = new DeliveryBuffer(settings.orderBy(), settings.shareBy(), settings.shareWeights());
        this.status = new ActivationStatus(settings, buffer);
        for (int i = 1; i <= settings.consumers(); i++) {
            works.add(new ConsumerWork(settings, i, endpoint, buffer, tracker, status));
        }
    }

    void start(WorkManager workManager) throws WorkException {
        status.register();
        for (ConsumerWork work : works) {
            workManager.scheduleWork(work, WorkManager.INDEFINITE, null, null);
        }
        LOG.info("RabbitMQ activation started: " + settings.describe());
    }

    /**
     * Lets every delivery in progress finish (bounded by shutdownTimeoutMs), then closes the
     * connections; whatever was unacknowledged returns to the queue.
     */
    void stop() {
        works.forEach(ConsumerWork::stop);
        long deadline = System.nanoTime() + settings.shutdownTimeoutMs() * 1_000_000;
        try {
            for (ConsumerWork work : works) {
                long left = Math.max(0, (deadline - System.nanoTime()) / 1_000_000);
                if (!work.awaitFinished(left)) {
                    LOG.warning("RabbitMQ activation on queue '" + settings.queue() + "': a delivery did not"
                            + " finish within " + settings.shutdownTimeoutMs() + " ms; interrupting it;"
                            + " its message stays unacknowledged and will be redelivered");
                    work.abort();
                    work.awaitFinished(2_000);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            works.forEach(ConsumerWork::abort);
        } finally {
            status.unregister();
        }
        LOG.info("RabbitMQ activation stopped: queue '" + settings.queue() + "'");
    }
}

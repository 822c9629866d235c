package io.lastcall.connector;

import jakarta.resource.NotSupportedException;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.BootstrapContext;
import jakarta.resource.spi.Connector;
import jakarta.resource.spi.ResourceAdapter;
import jakarta.resource.spi.ResourceAdapterInternalException;
import jakarta.resource.spi.TransactionSupport;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import jakarta.resource.spi.work.WorkException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import javax.transaction.xa.XAResource;

/**
 * The resource adapter bean. Inbound only and without XA: a transacted MDB's transaction covers
 * the application's own resources, and the message is acknowledged after that commit.
 */
@Connector(
        displayName = "lastcall RabbitMQ inbound adapter",
        vendorName = "lastcall",
        eisType = "RabbitMQ (AMQP 0-9-1)",
        version = "0.1",
        transactionSupport = TransactionSupport.TransactionSupportLevel.NoTransaction)
public class RabbitResourceAdapter implements ResourceAdapter, Serializable {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = Logger.getLogger(RabbitResourceAdapter.class.getName());

    private transient BootstrapContext context;
    private final transient Map<MessageEndpointFactory, RabbitActivation> activations = new ConcurrentHashMap<>();

    @Override
    public void start(BootstrapContext bootstrapContext) {
        this.context = bootstrapContext;
        LOG.info("lastcall RabbitMQ resource adapter started");
    }

    @Override
    public void stop() {
        List<RabbitActivation> running = new ArrayList<>(activations.values());
        activations.clear();
        running.forEach(RabbitActivation::stop);
        LOG.info("lastcall RabbitMQ resource adapter stopped");
    }

    @Override
    public void endpointActivation(MessageEndpointFactory factory, ActivationSpec spec) throws ResourceException {
        if (!(spec instanceof RabbitActivationSpec rabbitSpec)) {
            throw new NotSupportedException("Not a RabbitActivationSpec: " + spec);
        }
        ConsumerSettings settings;
        try {
            settings = ConsumerSettings.resolve(rabbitSpec, ConfigLookup.forCurrentThread());
        } catch (IllegalArgumentException e) {
            throw new ResourceAdapterInternalException(
                    e.getMessage() + " (endpoint " + factory.getEndpointClass() + ")");
        }
        RabbitActivation activation = new RabbitActivation(context, factory, settings);
        activations.put(factory, activation);
        try {
            activation.start(context.getWorkManager());
        } catch (WorkException e) {
            activations.remove(factory);
            activation.stop();
            throw new ResourceAdapterInternalException("Cannot schedule RabbitMQ consumers for "
                    + settings.describe() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void endpointDeactivation(MessageEndpointFactory factory, ActivationSpec spec) {
        RabbitActivation activation = activations.remove(factory);
        if (activation != null) {
            activation.stop();
        }
    }

    @Override
    public XAResource[] getXAResources(ActivationSpec[] specs) {
        return new XAResource[0];
    }

    // A resource adapter bean must define equality (JCA 1.7, 5.3.1); it has no config properties.
    @Override
    public boolean equals(Object other) {
        return other != null && other.getClass() == getClass();
    }

    @Override
    public int hashCode() {
        return getClass().hashCode();
    }
}

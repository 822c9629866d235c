package io.lastcall.connector;

import jakarta.jms.MessageListener;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.Activation;
import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.InvalidPropertyException;
import jakarta.resource.spi.ResourceAdapter;
import java.io.Serializable;

/**
 * The activation-config properties an MDB may set. All are strings so that the container passes
 * them through untouched; {@link ConsumerSettings} parses, defaults and validates them.
 *
 * <p>When {@code connectionConfig} (e.g. {@code lastcall.broker}) or {@code consumerConfig}
 * (e.g. {@code lastcall.worker}) is set, MicroProfile Config keys under that prefix
 * ({@code lastcall.broker.host}, {@code lastcall.worker.prefetch}, ...) override the literal
 * values here, so deployments configure the broker without touching annotations and passwords
 * never need to appear in code.
 */
@Activation(messageListeners = MessageListener.class)
public class RabbitActivationSpec implements ActivationSpec, Serializable {

    private static final long serialVersionUID = 1L;

    private transient ResourceAdapter resourceAdapter;

    private String connectionConfig;
    private String consumerConfig;
    private String host;
    private String port;
    /** host[:port],host[:port],...: the nodes of a cluster, tried in turn (overrides host and port) */
    private String addresses;
    private String virtualHost;
    private String username;
    private String password;
    private String queue;
    private String prefetch;
    private String consumers;
    private String maxRedeliveries;
    /** exception class names that pause the consumer instead of counting a failed delivery */
    private String pauseOn;
    /** a numeric header (e.g. a deadline in epoch ms): held deliveries go to the endpoint lowest first; "arrival" or blank keeps the broker's order */
    private String orderBy;
    /** a header (e.g. a tenant) whose values take turns at the held deliveries, in proportion to shareWeights */
    private String shareBy;
    /** value=weight,value=weight for shareBy's values (a value not listed weighs 1) */
    private String shareWeights;
    private String reconnectMaxDelayMs;
    private String shutdownTimeoutMs;

    @Override
    public void validate() throws InvalidPropertyException {
        try {
            ConsumerSettings.resolve(this, ConfigLookup.forCurrentThread());
        } catch (IllegalArgumentException e) {
            throw new InvalidPropertyException(e.getMessage());
        }
    }

    @Override
    public ResourceAdapter getResourceAdapter() {
        return resourceAdapter;
    }

    @Override
    public void setResourceAdapter(ResourceAdapter ra) throws ResourceException {
        this.resourceAdapter = ra;
    }

    public String getConnectionConfig() { return connectionConfig; }
    public void setConnectionConfig(String v) { connectionConfig = v; }
    public String getConsumerConfig() { return consumerConfig; }
    public void setConsumerConfig(String v) { consumerConfig = v; }
    public String getOrderBy() { return orderBy; }
    public void setOrderBy(String v) { orderBy = v; }
    public String getShareBy() { return shareBy; }
    public void setShareBy(String v) { shareBy = v; }
    public String getShareWeights() { return shareWeights; }
    public void setShareWeights(String v) { shareWeights = v; }
    public String getHost() { return host; }
    public void setHost(String v) { host = v; }
    public String getPort() { return port; }
    public void setPort(String v) { port = v; }
    public String getAddresses() { return addresses; }
    public void setAddresses(String v) { addresses = v; }
    public String getVirtualHost() { return virtualHost; }
    public void setVirtualHost(String v) { virtualHost = v; }
    public String getUsername() { return username; }
    public void setUsername(String v) { username = v; }
    public String getPassword() { return password; }
    public void setPassword(String v) { password = v; }
    public String getQueue() { return queue; }
    public void setQueue(String v) { queue = v; }
    public String getPrefetch() { return prefetch; }
    public void setPrefetch(String v) { prefetch = v; }
    public String getConsumers() { return consumers; }
    public void setConsumers(String v) { consumers = v; }
    public String getMaxRedeliveries() { return maxRedeliveries; }
    public void setMaxRedeliveries(String v) { maxRedeliveries = v; }
    public String getPauseOn() { return pauseOn; }
    public void setPauseOn(String v) { pauseOn = v; }
    public String getReconnectMaxDelayMs() { return reconnectMaxDelayMs; }
    public void setReconnectMaxDelayMs(String v) { reconnectMaxDelayMs = v; }
    public String getShutdownTimeoutMs() { return shutdownTimeoutMs; }
    public void setShutdownTimeoutMs(String v) { shutdownTimeoutMs = v; }

    @Override
    public String toString() {
        return "RabbitActivationSpec[queue=" + queue + ", consumerConfig=" + consumerConfig + "]";
    }
}

package io.lastcall.broker;

import com.rabbitmq.client.Address;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import io.lastcall.policy.BrokerConnectionSettings;
import io.lastcall.policy.Settings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeoutException;

/**
 * lastcall's own connections to RabbitMQ (topology, publishing, depths), made from the broker
 * settings ({@link BrokerConnectionSettings}: the same {@code lastcall.broker.*} keys the connector
 * reads for the MDBs, e.g. env {@code LASTCALL_BROKER_HOST}).
 */
@ApplicationScoped
public class BrokerSettings {

    @Inject
    Settings settings;

    /**
     * A connection to the first node of {@link #addresses()} that answers, without automatic
     * recovery: callers reconnect on their own terms.
     */
    public Connection connect(String name) throws IOException, TimeoutException {
        ConnectionFactory factory = new ConnectionFactory();
        BrokerConnectionSettings broker = settings.broker();
        factory.setVirtualHost(broker.virtualHost());
        factory.setUsername(broker.username());
        factory.setPassword(broker.password());
        factory.setAutomaticRecoveryEnabled(false);
        factory.setConnectionTimeout(5_000);
        return factory.newConnection(addresses(), name);
    }

    /** The broker's nodes: lastcall.broker.addresses, else host and port. */
    public List<Address> addresses() {
        BrokerConnectionSettings broker = settings.broker();
        String listed = broker.addresses().orElse("");
        if (listed.isEmpty()) {
            return List.of(new Address(broker.host(), broker.port()));
        }
        try {
            return List.of(Address.parseAddresses(listed));
        } catch (RuntimeException e) {
            throw new IllegalStateException("lastcall.broker.addresses is '" + listed
                    + "': each entry must be host or host:port, comma-separated", e);
        }
    }

    public String describe() {
        String virtualHost = settings.broker().virtualHost();
        return "amqp://" + settings.broker().username() + "@" + String.join(",", addresses().stream().map(a -> a.getHost() + ":"
                + (a.getPort() < 0 ? ConnectionFactory.DEFAULT_AMQP_PORT : a.getPort())).toList())
                + ("/".equals(virtualHost) ? "/" : "/" + virtualHost);
    }
}

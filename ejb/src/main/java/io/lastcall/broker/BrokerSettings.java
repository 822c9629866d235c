package io.lastcall.broker;

import com.rabbitmq.client.Address;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Broker connection settings, the same keys the connector reads for the MDBs
 * ({@code lastcall.broker.*}, e.g. env {@code LASTCALL_BROKER_HOST}).
 */
@ApplicationScoped
public class BrokerSettings {

    @Inject
    @ConfigProperty(name = "lastcall.broker.host", defaultValue = "127.0.0.1")
    String host;

    @Inject
    @ConfigProperty(name = "lastcall.broker.port", defaultValue = "5672")
    int port;

    /** host[:port],host[:port],...: a cluster's nodes, tried in turn; overrides host and port */
    @Inject
    @ConfigProperty(name = "lastcall.broker.addresses")
    Optional<String> addresses;

    @Inject
    @ConfigProperty(name = "lastcall.broker.virtual-host", defaultValue = "/")
    String virtualHost;

    @Inject
    @ConfigProperty(name = "lastcall.broker.username", defaultValue = "guest")
    String username;

    @Inject
    @ConfigProperty(name = "lastcall.broker.password", defaultValue = "guest")
    String password;

    /**
     * A connection to the first node of {@link #addresses()} that answers, without automatic
     * recovery: callers reconnect on their own terms.
     */
    public Connection connect(String name) throws IOException, TimeoutException {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setVirtualHost(virtualHost);
        factory.setUsername(username);
        factory.setPassword(password);
        factory.setAutomaticRecoveryEnabled(false);
        factory.setConnectionTimeout(5_000);
        return factory.newConnection(addresses(), name);
    }

    /** The broker's nodes: lastcall.broker.addresses, else host and port. */
    public List<Address> addresses() {
        String listed = addresses.map(String::trim).orElse("");
        if (listed.isEmpty()) {
            return List.of(new Address(host, port));
        }
        try {
            return List.of(Address.parseAddresses(listed));
        } catch (RuntimeException e) {
            throw new IllegalStateException("lastcall.broker.addresses is '" + listed
                    + "': each entry must be host or host:port, comma-separated", e);
        }
    }

    public String describe() {
        return "amqp://" + username + "@" + String.join(",", addresses().stream().map(a -> a.getHost() + ":"
                + (a.getPort() < 0 ? ConnectionFactory.DEFAULT_AMQP_PORT : a.getPort())).toList())
                + ("/".equals(virtualHost) ? "/" : "/" + virtualHost);
    }
}

package io.lastcall.broker;

import com.rabbitmq.client.ConnectionFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
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

    @Inject
    @ConfigProperty(name = "lastcall.broker.virtual-host", defaultValue = "/")
    String virtualHost;

    @Inject
    @ConfigProperty(name = "lastcall.broker.username", defaultValue = "guest")
    String username;

    @Inject
    @ConfigProperty(name = "lastcall.broker.password", defaultValue = "guest")
    String password;

    /** A factory without automatic recovery: callers reconnect on their own terms. */
    public ConnectionFactory connectionFactory() {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost(host);
        factory.setPort(port);
        factory.setVirtualHost(virtualHost);
        factory.setUsername(username);
        factory.setPassword(password);
        factory.setAutomaticRecoveryEnabled(false);
        factory.setConnectionTimeout(5_000);
        return factory;
    }

    public String describe() {
        return "amqp://" + username + "@" + host + ":" + port + ("/".equals(virtualHost) ? "/" : "/" + virtualHost);
    }
}

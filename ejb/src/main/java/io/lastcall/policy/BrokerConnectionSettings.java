package io.lastcall.policy;

import java.util.Optional;

/**
 * How to reach RabbitMQ: the same {@code lastcall.broker.*} keys the connector reads for the MDBs.
 * Read from MicroProfile Config at each call; each default is written here once.
 */
public final class BrokerConnectionSettings {

    private final ConfigReader config;

    BrokerConnectionSettings(ConfigReader config) {
        this.config = config;
    }

    public String host() {
        return config.text("lastcall.broker.host", "127.0.0.1");
    }

    public int port() {
        return (int) config.number("lastcall.broker.port", 5672);
    }

    /** host[:port],host[:port],...: a cluster's nodes, tried in turn; overrides host and port. */
    public Optional<String> addresses() {
        return config.optional("lastcall.broker.addresses", String.class).map(String::trim).filter(a -> !a.isEmpty());
    }

    public String virtualHost() {
        return config.text("lastcall.broker.virtual-host", "/");
    }

    public String username() {
        return config.text("lastcall.broker.username", "guest");
    }

    /** On Payara the password alias lastcall.broker.password; on WildFly the server's private config source. */
    public String password() {
        return config.text("lastcall.broker.password", "guest");
    }
}

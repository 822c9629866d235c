package io.lastcall.connector;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The validated settings of one activation. Each value comes from, in order: MicroProfile Config
 * under the spec's prefix, the literal activation-config property, the default below.
 */
public record ConsumerSettings(
        String host, int port, String virtualHost, String username, String password,
        String queue, int prefetch, int consumers, int maxRedeliveries,
        long reconnectMaxDelayMs, long shutdownTimeoutMs, String pauseOn) {

    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 5672;
    public static final int DEFAULT_PREFETCH = 10;
    public static final int DEFAULT_CONSUMERS = 1;
    public static final int DEFAULT_MAX_REDELIVERIES = 5;
    public static final long DEFAULT_RECONNECT_MAX_DELAY_MS = 30_000;
    public static final long DEFAULT_SHUTDOWN_TIMEOUT_MS = 30_000;

    /** Resolves and validates; every problem is listed in one message that names the property. */
    public static ConsumerSettings resolve(RabbitActivationSpec spec, ConfigLookup config) {
        Resolver connection = new Resolver(spec.getConnectionConfig(), config);
        Resolver consumer = new Resolver(spec.getConsumerConfig(), config);
        ConsumerSettings settings = new ConsumerSettings(
                connection.text("host", spec.getHost(), DEFAULT_HOST),
                connection.integer("port", spec.getPort(), DEFAULT_PORT, 1, 65_535),
                connection.text("virtual-host", spec.getVirtualHost(), "/"),
                connection.text("username", spec.getUsername(), "guest"),
                connection.text("password", spec.getPassword(), "guest"),
                consumer.text("queue", spec.getQueue(), null),
                consumer.integer("prefetch", spec.getPrefetch(), DEFAULT_PREFETCH, 1, 65_535),
                consumer.integer("consumers", spec.getConsumers(), DEFAULT_CONSUMERS, 1, 64),
                consumer.integer("max-redeliveries", spec.getMaxRedeliveries(),
                        DEFAULT_MAX_REDELIVERIES, 0, 1_000),
                consumer.integer("reconnect-max-delay-ms", spec.getReconnectMaxDelayMs(),
                        (int) DEFAULT_RECONNECT_MAX_DELAY_MS, 100, 3_600_000),
                consumer.integer("shutdown-timeout-ms", spec.getShutdownTimeoutMs(),
                        (int) DEFAULT_SHUTDOWN_TIMEOUT_MS, 0, 3_600_000),
                consumer.text("pause-on", spec.getPauseOn(), ""));
        List<String> problems = new ArrayList<>(connection.problems);
        problems.addAll(consumer.problems);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("Invalid RabbitMQ activation: " + String.join("; ", problems));
        }
        return settings;
    }

    /** The queues to consume: {@code queue} may list several, comma-separated. */
    public java.util.List<String> queues() {
        return java.util.Arrays.stream(queue.split(",")).map(String::trim).filter(q -> !q.isEmpty()).toList();
    }

    /**
     * Exception class names (the class or a superclass, anywhere in the cause chain) that mean
     * "not this message's fault" ({@code pauseOn}, comma-separated).
     */
    public java.util.List<String> pauseOnExceptions() {
        return java.util.Arrays.stream(pauseOn.split(",")).map(String::trim).filter(c -> !c.isEmpty()).toList();
    }

    /** Human-readable, secrets left out. */
    public String describe() {
        return "queue" + (queues().size() > 1 ? "s '" : " '") + String.join("', '", queues()) + "' on amqp://" + username + "@" + host + ":" + port + virtualHostPath()
                + " (prefetch " + prefetch + ", consumers " + consumers
                + ", maxRedeliveries " + maxRedeliveries + ")";
    }

    private String virtualHostPath() {
        return "/".equals(virtualHost) ? "/" : "/" + virtualHost;
    }

    @Override
    public String toString() {
        return describe();
    }

    private static final class Resolver {
        private final String prefix;
        private final ConfigLookup config;
        private final List<String> problems = new ArrayList<>();

        Resolver(String prefix, ConfigLookup config) {
            this.prefix = prefix == null || prefix.isBlank() ? null : prefix.trim();
            this.config = config;
        }

        private Optional<String[]> raw(String name, String literal) {
            if (prefix != null) {
                Optional<String> configured = config.get(prefix + "." + name).filter(v -> !v.isBlank());
                if (configured.isPresent()) {
                    return Optional.of(new String[] {configured.get().trim(), prefix + "." + name});
                }
            }
            if (literal != null && !literal.isBlank()) {
                return Optional.of(new String[] {literal.trim(), "activation property " + name});
            }
            return Optional.empty();
        }

        String text(String name, String literal, String fallback) {
            Optional<String[]> value = raw(name, literal);
            if (value.isEmpty() && fallback == null) {
                problems.add(name + " is required" + (prefix == null ? "" : " (set " + prefix + "." + name + ")"));
            }
            return value.map(v -> v[0]).orElse(fallback);
        }

        int integer(String name, String literal, int fallback, int min, int max) {
            Optional<String[]> value = raw(name, literal);
            if (value.isEmpty()) {
                return fallback;
            }
            Function<String, String> problem = why -> name + " from " + value.get()[1] + " is '"
                    + value.get()[0] + "': " + why;
            try {
                int parsed = Integer.parseInt(value.get()[0]);
                if (parsed < min || parsed > max) {
                    problems.add(problem.apply("must be between " + min + " and " + max));
                    return fallback;
                }
                return parsed;
            } catch (NumberFormatException e) {
                problems.add(problem.apply("not a whole number"));
                return fallback;
            }
        }
    }
}

package io.lastcall.connector;

import com.rabbitmq.client.Address;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The validated settings of one activation. Each value comes from, in order: MicroProfile Config
 * under the spec's prefix, the literal activation-config property, the default below.
 */
public record ConsumerSettings(
        List<Address> addresses, String virtualHost, String username, String password,
        String queue, int prefetch, int consumers, int maxRedeliveries,
        long reconnectMaxDelayMs, long shutdownTimeoutMs, String pauseOn, String orderBy,
        String shareBy, Map<String, Double> shareWeights) {

    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 5672;
    public static final int DEFAULT_PREFETCH = 10;
    public static final int DEFAULT_CONSUMERS = 1;
    public static final int DEFAULT_MAX_REDELIVERIES = 5;
    public static final long DEFAULT_RECONNECT_MAX_DELAY_MS = 30_000;
    public static final long DEFAULT_SHUTDOWN_TIMEOUT_MS = 30_000;
    /** The {@code orderBy} value that keeps the broker's order. */
    public static final String ARRIVAL = "arrival";
    /** The {@code shareBy} value that keeps every delivery in one share. */
    public static final String NO_SHARES = "none";

    /** Resolves and validates; every problem is listed in one message that names the property. */
    public static ConsumerSettings resolve(RabbitActivationSpec spec, ConfigLookup config) {
        Resolver connection = new Resolver(spec.getConnectionConfig(), config);
        Resolver consumer = new Resolver(spec.getConsumerConfig(), config);
        String host = connection.text("host", spec.getHost(), DEFAULT_HOST);
        int port = connection.integer("port", spec.getPort(), DEFAULT_PORT, 1, 65_535);
        ConsumerSettings settings = new ConsumerSettings(
                connection.addresses(spec.getAddresses(), new Address(host, port)),
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
                consumer.text("pause-on", spec.getPauseOn(), ""),
                orderBy(consumer.text("order-by", spec.getOrderBy(), ARRIVAL)),
                shareBy(consumer.text("share-by", spec.getShareBy(), NO_SHARES)),
                consumer.weights("share-weights", spec.getShareWeights()));
        List<String> problems = new ArrayList<>(connection.problems);
        problems.addAll(consumer.problems);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("Invalid RabbitMQ activation: " + String.join("; ", problems));
        }
        return settings;
    }

    /** A header name, or "" for one share. */
    private static String shareBy(String value) {
        return NO_SHARES.equalsIgnoreCase(value.trim()) ? "" : value.trim();
    }

    /** A header name, or "" for arrival order. */
    private static String orderBy(String value) {
        return ARRIVAL.equalsIgnoreCase(value.trim()) ? "" : value.trim();
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

    /**
     * The broker's nodes in the order consumer {@code index} (from 1) tries them: each consumer
     * starts one node further along, so the consumers of an activation spread over a cluster, and
     * each fails over to the next node when its own is gone.
     */
    public List<Address> addressesFor(int index) {
        int start = Math.floorMod(index - 1, addresses.size());
        List<Address> order = new ArrayList<>(addresses.subList(start, addresses.size()));
        order.addAll(addresses.subList(0, start));
        return order;
    }

    /** host:port,host:port,... */
    public String brokers() {
        return String.join(",", addresses.stream().map(a -> a.getHost() + ":" + (a.getPort() < 0 ? DEFAULT_PORT
                : a.getPort())).toList());
    }

    /** Human-readable, secrets left out. */
    public String describe() {
        return "queue" + (queues().size() > 1 ? "s '" : " '") + String.join("', '", queues()) + "' on amqp://"
                + username + "@" + brokers() + virtualHostPath()
                + " (prefetch " + prefetch + ", consumers " + consumers
                + ", maxRedeliveries " + maxRedeliveries
                + ", order " + (orderBy.isEmpty() ? ARRIVAL : "by header " + orderBy)
                + (shareBy.isEmpty() ? "" : ", shares by header " + shareBy
                        + (shareWeights.isEmpty() ? "" : " weighted " + shareWeights)) + ")";
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

        /** {@code addresses} (host[:port], comma-separated), else the one address of host and port. */
        List<Address> addresses(String literal, Address single) {
            Optional<String[]> value = raw("addresses", literal);
            if (value.isEmpty()) {
                return List.of(single);
            }
            List<Address> parsed = new ArrayList<>();
            for (String item : value.get()[0].split(",")) {
                String[] hostPort = item.trim().split(":", -1);
                try {
                    if (hostPort[0].isBlank() || hostPort.length > 2) {
                        throw new NumberFormatException();
                    }
                    int port = hostPort.length == 2 ? Integer.parseInt(hostPort[1]) : DEFAULT_PORT;
                    if (port < 1 || port > 65_535) {
                        throw new NumberFormatException();
                    }
                    parsed.add(new Address(hostPort[0], port));
                } catch (NumberFormatException e) {
                    problems.add("addresses from " + value.get()[1] + " is '" + value.get()[0]
                            + "': each entry must be host or host:port (port 1-65535), not '" + item.trim() + "'");
                    return List.of(single);
                }
            }
            return List.copyOf(parsed);
        }

        /** value=weight,value=weight: each weight a positive number up to 1,000 (values not listed weigh 1). */
        Map<String, Double> weights(String name, String literal) {
            Optional<String[]> value = raw(name, literal);
            Map<String, Double> parsed = new LinkedHashMap<>();
            if (value.isEmpty()) {
                return Map.of();
            }
            for (String item : value.get()[0].split(",")) {
                if (item.isBlank()) {
                    continue;
                }
                int eq = item.lastIndexOf('=');
                try {
                    if (eq <= 0) {
                        throw new NumberFormatException();
                    }
                    double weight = Double.parseDouble(item.substring(eq + 1).trim());
                    if (!(weight > 0 && weight <= 1_000)) {
                        throw new NumberFormatException();
                    }
                    parsed.put(item.substring(0, eq).trim(), weight);
                } catch (NumberFormatException e) {
                    problems.add(name + " from " + value.get()[1] + " is '" + value.get()[0]
                            + "': each entry must be value=weight with a weight above 0 and up to 1000, not '"
                            + item.trim() + "'");
                    return Map.of();
                }
            }
            return Map.copyOf(parsed);
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

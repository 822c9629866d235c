package io.lastcall.broker;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * The connector's activations as it reports them over JMX
 * ({@code io.lastcall.connector:type=Activation,*}), read by attribute name only.
 */
public final class ConsumerStatus {

    /**
     * One activation: a queue and how many of its consumers are connected now; {@code held}
     * deliveries wait in the adapter, unacknowledged, for a consumer thread, taken in
     * {@code orderBy} order, shared out by the values of {@code shareBy} ("" when not shared).
     */
    public record Activation(String queue, String broker, int consumersConfigured, int consumersConnected,
            int prefetch, String orderBy, String shareBy, int held, long delivered, long acknowledged, long requeued, long rejected,
            long paused, List<String> missingQueues, String lastError) {

        /** Received from the broker and not yet settled: held in the adapter or with the endpoint. */
        public long unacknowledged() {
            return held + delivered - acknowledged - requeued - rejected;
        }

        public boolean connected() {
            return consumersConnected >= consumersConfigured && consumersConfigured > 0;
        }
    }

    private ConsumerStatus() {
    }

    public static List<Activation> activations() {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        List<Activation> result = new ArrayList<>();
        try {
            Set<ObjectName> names = server.queryNames(new ObjectName("io.lastcall.connector:type=Activation,*"), null);
            for (ObjectName name : names) {
                result.add(new Activation(
                        (String) server.getAttribute(name, "Queue"),
                        (String) server.getAttribute(name, "Broker"),
                        (Integer) server.getAttribute(name, "ConsumersConfigured"),
                        (Integer) server.getAttribute(name, "ConsumersConnected"),
                        (Integer) server.getAttribute(name, "Prefetch"),
                        (String) server.getAttribute(name, "OrderBy"),
                        (String) server.getAttribute(name, "ShareBy"),
                        (Integer) server.getAttribute(name, "Held"),
                        (Long) server.getAttribute(name, "Delivered"),
                        (Long) server.getAttribute(name, "Acknowledged"),
                        (Long) server.getAttribute(name, "Requeued"),
                        (Long) server.getAttribute(name, "Rejected"),
                        (Long) server.getAttribute(name, "Paused"),
                        java.util.Arrays.stream(((String) server.getAttribute(name, "MissingQueues")).split(","))
                                .filter(q -> !q.isBlank()).toList(),
                        (String) server.getAttribute(name, "LastError")));
            }
        } catch (JMException e) {
            throw new IllegalStateException("Cannot read the connector's JMX status: " + e.getMessage(), e);
        }
        result.sort((a, b) -> a.queue().compareTo(b.queue()));
        return result;
    }
}

package io.lastcall.connector;

import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/** Live counters of one activation, registered as an MXBean while the activation runs. */
final class ActivationStatus implements ActivationStatusMXBean {

    private static final Logger LOG = Logger.getLogger(ActivationStatus.class.getName());

    private final ConsumerSettings settings;
    private final AtomicInteger connected = new AtomicInteger();
    private final AtomicLong delivered = new AtomicLong();
    private final AtomicLong acknowledged = new AtomicLong();
    private final AtomicLong requeued = new AtomicLong();
    private final AtomicLong rejected = new AtomicLong();
    private final AtomicLong paused = new AtomicLong();
    private final java.util.concurrent.ConcurrentHashMap<String, String> missing =
            new java.util.concurrent.ConcurrentHashMap<>();
    private final DeliveryBuffer buffer;
    private volatile String lastError = "";
    private volatile long lastErrorAt;
    private ObjectName name;

    ActivationStatus(ConsumerSettings settings, DeliveryBuffer buffer) {
        this.settings = settings;
        this.buffer = buffer;
    }

    void register() {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        try {
            ObjectName candidate = new ObjectName("io.lastcall.connector:type=Activation,name="
                    + ObjectName.quote(settings.queue()));
            for (int i = 2; server.isRegistered(candidate); i++) {
                candidate = new ObjectName("io.lastcall.connector:type=Activation,name="
                        + ObjectName.quote(settings.queue() + "#" + i));
            }
            server.registerMBean(this, candidate);
            name = candidate;
        } catch (JMException e) {
            LOG.log(Level.WARNING, "Could not register JMX status for queue " + settings.queue(), e);
        }
    }

    void unregister() {
        if (name == null) {
            return;
        }
        try {
            ManagementFactory.getPlatformMBeanServer().unregisterMBean(name);
        } catch (JMException e) {
            LOG.log(Level.FINE, "JMX status already gone: " + name, e);
        }
        name = null;
    }

    void consumerConnected() { connected.incrementAndGet(); }
    void consumerDisconnected() { connected.decrementAndGet(); }
    void delivered() { delivered.incrementAndGet(); }
    void acknowledged() { acknowledged.incrementAndGet(); }
    void requeued() { requeued.incrementAndGet(); }
    void rejected() { rejected.incrementAndGet(); }
    void paused() { paused.incrementAndGet(); }

    /** A queue of this activation that cannot be consumed now, and why. */
    void queueMissing(String queue, String problem) {
        missing.put(queue, problem == null ? "unknown" : problem);
    }

    void queueConsumed(String queue) {
        missing.remove(queue);
    }

    java.util.Map<String, String> missingQueues() {
        return missing;
    }

    void error(String message) {
        lastError = message;
        lastErrorAt = System.currentTimeMillis();
    }

    @Override public String getQueue() { return settings.queue(); }
    @Override public String getBroker() { return settings.brokers(); }
    @Override public int getConsumersConfigured() { return settings.consumers(); }
    @Override public int getConsumersConnected() { return connected.get(); }
    @Override public int getPrefetch() { return settings.prefetch(); }
    @Override public String getOrderBy() { return settings.orderBy().isEmpty() ? ConsumerSettings.ARRIVAL : settings.orderBy(); }
    @Override public String getShareBy() { return settings.shareBy(); }
    @Override public int getHeld() { return buffer.size(); }
    @Override public long getDelivered() { return delivered.get(); }
    @Override public long getAcknowledged() { return acknowledged.get(); }
    @Override public long getRequeued() { return requeued.get(); }
    @Override public long getRejected() { return rejected.get(); }
    @Override public long getPaused() { return paused.get(); }
    @Override public String getMissingQueues() { return String.join(",", new java.util.TreeSet<>(missing.keySet())); }
    @Override public String getLastError() { return lastError; }
    @Override public long getLastErrorAt() { return lastErrorAt; }
}

package io.lastcall.connector;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.Delivery;
import com.rabbitmq.client.ShutdownSignalException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.resource.spi.work.HintsContext;
import jakarta.resource.spi.work.Work;
import jakarta.resource.spi.work.WorkContext;
import jakarta.resource.spi.work.WorkContextProvider;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One consumer of one activation, run on a container WorkManager thread for as long as the
 * activation lives. It owns its connection and channel and rebuilds both after any loss (the
 * client's own recovery is off: acks on a recovered channel with old delivery tags fail and
 * strand messages). Deliveries go from the client's threads into the activation's
 * {@link DeliveryBuffer}, which every consumer of the activation takes from, in the activation's
 * order; each is acknowledged on the channel it came from, and one from a lost channel is skipped,
 * since the broker redelivers everything that was unacknowledged on it. It asks for a long-running
 * thread with the standard hint: WildFly runs such Work on its long-running pool instead of the
 * short-running one that request-sized Work shares.
 */
final class ConsumerWork implements Work, WorkContextProvider {

    private static final Logger LOG = Logger.getLogger(ConsumerWork.class.getName());
    private static final long INITIAL_RECONNECT_DELAY_MS = 500;
    private static final long MISSING_QUEUE_RETRY_MS = 5_000;

    private final ConsumerSettings settings;
    private final int index;
    private final EndpointDelivery endpoint;
    private final DeliveryBuffer buffer;
    private final RedeliveryTracker tracker;
    private final ActivationStatus status;
    private final CountDownLatch finished = new CountDownLatch(1);
    private final Object sleeper = new Object();

    private volatile boolean running = true;
    private volatile Thread thread;
    private volatile Connection connection;

    ConsumerWork(ConsumerSettings settings, int index, EndpointDelivery endpoint, DeliveryBuffer buffer,
            RedeliveryTracker tracker, ActivationStatus status) {
        this.settings = settings;
        this.index = index;
        this.endpoint = endpoint;
        this.buffer = buffer;
        this.tracker = tracker;
        this.status = status;
    }

    @Override
    public List<WorkContext> getWorkContexts() {
        HintsContext hints = new HintsContext();
        hints.setName("lastcall " + name());
        hints.setHint(HintsContext.LONGRUNNING_HINT, Boolean.TRUE);
        return List.of(hints);
    }

    private String name() {
        return "consumer " + index + "/" + settings.consumers() + " of " + String.join(",", settings.queues());
    }

    @Override
    public void run() {
        thread = Thread.currentThread();
        long delay = INITIAL_RECONNECT_DELAY_MS;
        int failures = 0;
        String lastProblem = null;
        try {
            while (running) {
                try {
                    consumeUntilLost();
                    delay = INITIAL_RECONNECT_DELAY_MS;
                    failures = 0;
                    lastProblem = null;
                    continue;
                } catch (IOException | TimeoutException | RuntimeException e) {
                    // RuntimeException too: whatever happens, this consumer reconnects, it never just ends
                    if (!running) {
                        break;
                    }
                    failures++;
                    String problem = describe(e);
                    status.error(problem);
                    // loud on the first failure and whenever the cause changes, then every 10th try
                    if (!problem.equals(lastProblem) || failures % 10 == 0) {
                        LOG.warning("RabbitMQ " + name() + " on " + settings.brokers()
                                + " unavailable (attempt " + failures + "): " + problem
                                + "; retrying in " + delay + " ms");
                    }
                    if (e instanceof RuntimeException && !(e instanceof ShutdownSignalException)) {
                        LOG.log(Level.SEVERE, "RabbitMQ " + name() + ": unexpected failure; reconnecting", e);
                    }
                    lastProblem = problem;
                }
                pause(delay);
                delay = Math.min(delay * 2, settings.reconnectMaxDelayMs());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            thread = null;
            finished.countDown();
        }
    }

    private void consumeUntilLost() throws IOException, TimeoutException, InterruptedException {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setVirtualHost(settings.virtualHost());
        factory.setUsername(settings.username());
        factory.setPassword(settings.password());
        factory.setAutomaticRecoveryEnabled(false);
        factory.setTopologyRecoveryEnabled(false);
        factory.setConnectionTimeout(5_000);
        factory.setRequestedHeartbeat(30);
        Connection conn = factory.newConnection(settings.addressesFor(index), "lastcall-connector " + name());
        connection = conn;
        boolean counted = false;
        // one channel per queue: a missing or deleted queue closes only its own channel
        Map<String, QueueChannel> channels = new LinkedHashMap<>();
        try {
            long nextRetry = 0;
            while (running && conn.isOpen()) {
                if (System.nanoTime() >= nextRetry) {
                    openMissing(conn, channels);
                    nextRetry = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(MISSING_QUEUE_RETRY_MS);
                    if (channels.isEmpty()) {
                        throw new IOException("no queue of " + settings.queues() + " can be consumed: "
                                + status.missingQueues());
                    }
                    if (!counted) {
                        status.consumerConnected();
                        counted = true;
                        LOG.info("RabbitMQ " + name() + " consuming: " + settings.describe());
                    }
                }
                DeliveryBuffer.Inbound inbound = buffer.take(250);
                if (inbound != null && inbound.channel().isOpen()) {
                    handle(inbound.channel(), inbound.queue(), inbound.delivery());
                }
                channels.values().removeIf(c -> {
                    if (c.channel().isOpen() && !c.cancelled().get()) {
                        return false;
                    }
                    // its unacknowledged deliveries go back to the queue; consumed again once it is back
                    status.queueMissing(c.queue(), c.cancelled().get() ? "the broker cancelled the consumer"
                            + " (queue deleted?)" : String.valueOf(c.channel().getCloseReason()));
                    closeQuietly(c.channel());
                    return true;
                });
            }
            if (running) {
                ShutdownSignalException cause = conn.getCloseReason();
                if (cause != null) {
                    throw cause;
                }
                throw new IOException("connection closed");
            }
            channels.values().forEach(c -> cancelQuietly(c.channel(), c.tag()));
        } finally {
            if (counted) {
                status.consumerDisconnected();
            }
            connection = null;
            closeQuietly(conn);
        }
    }

    /** Opens a consuming channel for every queue that has none; a queue that cannot be consumed is reported missing. */
    private void openMissing(Connection conn, Map<String, QueueChannel> channels) throws IOException {
        for (String queue : settings.queues()) {
            if (channels.containsKey(queue)) {
                continue;
            }
            Channel channel = conn.createChannel();
            try {
                channel.basicQos(settings.prefetch());
                AtomicBoolean cancelled = new AtomicBoolean();
                // deliveries may arrive before basicConsume returns: they carry what is known already
                String tag = channel.basicConsume(queue, false,
                        (consumerTag, delivery) -> buffer.add(queue, channel, delivery),
                        consumerTag -> cancelled.set(true));
                channels.put(queue, new QueueChannel(queue, channel, tag, cancelled));
                status.queueConsumed(queue);
            } catch (IOException | ShutdownSignalException e) {
                if (!conn.isOpen()) {
                    throw e instanceof IOException io ? io : new IOException(e);
                }
                String problem = describe(e instanceof IOException io ? io : new IOException(e));
                if (!problem.equals(status.missingQueues().get(queue))) {
                    LOG.warning("RabbitMQ " + name() + ": queue '" + queue + "' cannot be consumed (" + problem
                            + "); the other queues go on, retrying it every " + MISSING_QUEUE_RETRY_MS / 1000 + " s");
                }
                status.queueMissing(queue, problem);
                closeQuietly(channel);
            }
        }
    }

    /** One queue's own channel and consumer. */
    private record QueueChannel(String queue, Channel channel, String tag, AtomicBoolean cancelled) {
    }

    private void handle(Channel channel, String queue, Delivery delivery) throws IOException, InterruptedException {
        long tag = delivery.getEnvelope().getDeliveryTag();
        String key = JmsMessages.key(delivery);
        Integer brokerCount = JmsMessages.brokerDeliveryCount(delivery);
        status.delivered();
        EndpointDelivery.Result result = deliver(queue, delivery, tracker.failuresSoFar(key, brokerCount));
        long delay = INITIAL_RECONNECT_DELAY_MS;
        for (int pauses = 1; result.pause() && running && channel.isOpen(); pauses++) {
            // not this message's fault (the endpoint's database is down, say): hold it, back off, try
            // it again; it does not count toward maxRedeliveries
            status.paused();
            status.error("paused: " + result.failure());
            if (pauses == 1 || pauses % 10 == 0) {
                LOG.warning("RabbitMQ " + name() + ": message " + key + " held back by an infrastructure failure ("
                        + result.failure() + "); retry " + pauses + " in " + delay + " ms");
            }
            pause(delay);
            delay = Math.min(delay * 2, settings.reconnectMaxDelayMs());
            if (running && channel.isOpen()) {
                result = deliver(queue, delivery, tracker.failuresSoFar(key, brokerCount));
            }
        }
        if (result.pause()) {
            // stopping, or the channel is gone: the broker redelivers it, uncounted
            return;
        }
        if (!channel.isOpen()) {
            // the broker redelivers it: processing may be repeated, never lost
            LOG.warning("RabbitMQ " + name() + ": channel closed while message " + key
                    + " was processed (" + (result.ok() ? "processed" : result.failure())
                    + "); the broker will redeliver it");
            return;
        }
        if (result.ok()) {
            channel.basicAck(tag, false);
            tracker.succeeded(key);
            status.acknowledged();
        } else if (tracker.failedMayRequeue(key, brokerCount)) {
            LOG.log(Level.INFO, "RabbitMQ " + name() + ": message " + key + " not acknowledged ("
                    + result.failure() + "); requeued for redelivery");
            channel.basicNack(tag, false, true);
            status.requeued();
        } else {
            LOG.warning("RabbitMQ " + name() + ": message " + key + " failed "
                    + (settings.maxRedeliveries() + 1) + " deliveries (last: " + result.failure()
                    + "); rejected without requeue, to the queue's dead-letter exchange if it has one");
            channel.basicReject(tag, false);
            status.rejected();
            status.error("rejected " + key + ": " + result.failure());
        }
    }

    /** One delivery to the endpoint; conversion problems become a message the endpoint can quarantine. */
    private EndpointDelivery.Result deliver(String queue, Delivery delivery, int failedSoFar) {
        Message message;
        try {
            message = JmsMessages.toJms(delivery, queue, failedSoFar);
        } catch (JMSException | RuntimeException e) {
            try {
                message = JmsMessages.unreadable(delivery, queue, e);
            } catch (JMSException | RuntimeException again) {
                return new EndpointDelivery.Result("cannot build a JMS message from the delivery: " + again);
            }
        }
        try {
            return endpoint.deliver(message);
        } catch (RuntimeException e) {
            return new EndpointDelivery.Result("delivery failed: " + e);
        }
    }

    /** Stops after the delivery in progress; unacknowledged prefetched messages return to the queue. */
    void stop() {
        running = false;
        synchronized (sleeper) {
            sleeper.notifyAll();
        }
    }

    boolean awaitFinished(long timeoutMs) throws InterruptedException {
        return finished.await(timeoutMs, TimeUnit.MILLISECONDS);
    }

    /** After the shutdown timeout: interrupt the delivery and drop the connection. */
    void abort() {
        Thread t = thread;
        if (t != null) {
            t.interrupt();
        }
        Connection conn = connection;
        if (conn != null) {
            conn.abort(1_000);
        }
    }

    @Override
    public void release() {
        stop();
    }

    private void pause(long ms) throws InterruptedException {
        synchronized (sleeper) {
            if (running) {
                sleeper.wait(ms);
            }
        }
    }

    private static String describe(Exception e) {
        if (e instanceof ShutdownSignalException s) {
            return "connection or channel closed: " + s.getMessage();
        }
        Throwable cause = e.getCause();
        if (cause instanceof ShutdownSignalException s) {
            // e.g. basic.consume on a missing queue: "NOT_FOUND - no queue 'x' in vhost '/'"
            return s.getMessage();
        }
        return e.getClass().getSimpleName() + ": " + e.getMessage()
                + (cause == null ? "" : " (" + cause + ")");
    }

    private static void cancelQuietly(Channel channel, String tag) {
        try {
            channel.basicCancel(tag);
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.FINE, "basic.cancel failed", e);
        }
    }

    private static void closeQuietly(Channel channel) {
        try {
            if (channel.isOpen()) {
                channel.close();
            }
        } catch (IOException | TimeoutException | RuntimeException e) {
            LOG.log(Level.FINE, "channel close failed", e);
        }
    }

    private static void closeQuietly(Connection conn) {
        try {
            if (conn.isOpen()) {
                conn.close(2_000);
            }
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.FINE, "connection close failed", e);
        }
    }
}

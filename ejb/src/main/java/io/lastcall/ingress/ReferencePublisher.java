package io.lastcall.ingress;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import io.lastcall.broker.BrokerSettings;
import io.lastcall.job.Reference;
import io.lastcall.policy.Settings;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Publishes job references with publisher confirms on one connection and a small pool of
 * confirm channels ({@code lastcall.ingress.publisher-channels}), so that concurrent submissions
 * do not wait for each other's confirms; a channel (or the connection) is rebuilt after any
 * failure. A single reference waits for its own confirm; a batch is published pipelined on one
 * channel, with one wait for all of its confirms.
 */
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class ReferencePublisher {

    private static final Logger LOG = Logger.getLogger(ReferencePublisher.class.getName());
    private static final long CONFIRM_TIMEOUT_MS = 5_000;

    /** One confirm channel and the ids the broker returned on it as unroutable. */
    private static final class Slot {
        Channel channel;
        final Set<String> returned = ConcurrentHashMap.newKeySet();
    }

    /** One reference to publish, routed to its workload's queue, and the tenant whose share it counts in. */
    public record Outgoing(Reference reference, String workload, long ttlMs, String tenant) {
    }

    @Inject
    BrokerSettings broker;

    @Inject
    Settings settings;

    private Connection connection;
    private BlockingQueue<Slot> slots;

    @PostConstruct
    void init() {
        int size = settings.ingress().publisherChannels();
        slots = new ArrayBlockingQueue<>(size);
        for (int i = 0; i < size; i++) {
            slots.add(new Slot());
        }
    }

    /** To the work exchange, routed to the workload's queue. */
    public boolean publish(Outgoing outgoing) {
        return publish(settings.topology().workExchange(), outgoing);
    }

    /** To a retry tier, from where it returns to the workload's queue after the tier's delay. */
    public boolean publishRetry(Outgoing outgoing, long tierMs) {
        return publish(settings.topology().retryTier(tierMs), outgoing);
    }

    /**
     * @param ttlMs the per-message expiration, ≥ 1 (the caller never publishes a 0: RabbitMQ reads
     *     it as "expire now" and a JMS client as "never")
     * @return true once the broker confirmed the message and did not return it as unroutable
     */
    private boolean publish(String exchange, Outgoing o) {
        String jobId = o.reference().jobId();
        if (o.ttlMs() < 1) {
            throw new IllegalArgumentException("refusing to publish " + jobId + " with ttl " + o.ttlMs());
        }
        List<String> confirmed = onSlot(List.of(jobId), "the reference of job " + jobId,
                ch -> ch.basicPublish(exchange, o.workload(), true, properties(o),
                        o.reference().toJson().getBytes(StandardCharsets.UTF_8)));
        return confirmed.contains(jobId);
    }

    /**
     * Publishes all of them on one channel without waiting between messages, then waits once for
     * the broker's confirms (pipelined): returns the job ids the broker confirmed and did not
     * return. If the broker nacks any, none counts as confirmed (confirms of one wait are not told
     * apart); those jobs stay ACCEPTED and the reconciler publishes them again.
     */
    public List<String> publishAll(List<Outgoing> outgoing) {
        for (Outgoing o : outgoing) {
            if (o.ttlMs() < 1) {
                throw new IllegalArgumentException("refusing to publish " + o.reference().jobId() + " with ttl "
                        + o.ttlMs());
            }
        }
        return onSlot(outgoing.stream().map(o -> o.reference().jobId()).toList(), outgoing.size() + " references",
                ch -> {
                    for (Outgoing o : outgoing) {
                        ch.basicPublish(settings.topology().workExchange(), o.workload(), true,
                                properties(o),
                                o.reference().toJson().getBytes(StandardCharsets.UTF_8));
                    }
                });
    }

    @FunctionalInterface
    private interface Publishing {
        void on(Channel channel) throws IOException;
    }

    /** Publishes on a free channel, waits for the confirms; the ids confirmed and not returned. */
    private List<String> onSlot(List<String> jobIds, String what, Publishing publishing) {
        Slot slot;
        try {
            slot = slots.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        }
        try {
            Channel ch = channel(slot);
            slot.returned.clear();
            publishing.on(ch);
            if (!ch.waitForConfirms(CONFIRM_TIMEOUT_MS)) {
                LOG.warning("RabbitMQ nacked " + what + "; the reconciler publishes again what is owed");
                return List.of();
            }
            return jobIds.stream().filter(id -> !slot.returned.contains(id)).toList();
        } catch (IOException | TimeoutException | RuntimeException e) {
            LOG.log(Level.WARNING, "Publishing " + what + " to " + broker.describe()
                    + " failed; what is owed stays ACCEPTED for the reconciler: " + e, e);
            reset(slot);
            return List.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        } finally {
            slots.add(slot);
        }
    }

    private static AMQP.BasicProperties properties(Outgoing o) {
        Map<String, Object> headers = new java.util.HashMap<>();
        headers.put(Reference.EXPIRES_AT_HEADER, o.reference().expiresAt());
        if (o.tenant() != null) {
            headers.put(Reference.TENANT_HEADER, o.tenant());
        }
        return new AMQP.BasicProperties.Builder()
                .messageId(o.reference().jobId()).contentType("application/json").deliveryMode(2)
                .expiration(Long.toString(o.ttlMs())).timestamp(new Date()).headers(headers).build();
    }

    private Channel channel(Slot slot) throws IOException, TimeoutException {
        if (slot.channel == null || !slot.channel.isOpen()) {
            Channel ch = connection().createChannel();
            ch.confirmSelect();
            ch.addReturnListener(r -> {
                slot.returned.add(r.getProperties().getMessageId());
                LOG.warning("RabbitMQ returned the unroutable reference of job " + r.getProperties().getMessageId()
                        + " (exchange '" + r.getExchange() + "', routing key '" + r.getRoutingKey()
                        + "': no queue bound?): " + r.getReplyText());
            });
            slot.channel = ch;
        }
        return slot.channel;
    }

    private synchronized Connection connection() throws IOException, TimeoutException {
        if (connection == null || !connection.isOpen()) {
            closeConnection();
            connection = broker.connect("lastcall publisher");
        }
        return connection;
    }

    /** After a failure: this channel is rebuilt; so is the connection, if it is the connection that failed. */
    private void reset(Slot slot) {
        try {
            if (slot.channel != null && slot.channel.isOpen()) {
                slot.channel.close();
            }
        } catch (IOException | TimeoutException | RuntimeException e) {
            LOG.log(Level.FINE, "closing a publisher channel", e);
        }
        slot.channel = null;
        synchronized (this) {
            if (connection != null && !connection.isOpen()) {
                closeConnection();
            }
        }
    }

    @PreDestroy
    synchronized void closeConnection() {
        try {
            if (connection != null && connection.isOpen()) {
                connection.close(2_000);
            }
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.FINE, "closing the publisher connection", e);
        }
        connection = null;
    }
}

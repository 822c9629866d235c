package io.lastcall.ingress;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import io.lastcall.broker.BrokerSettings;
import io.lastcall.job.Reference;
import io.lastcall.policy.Settings;
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
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Publishes job references to the worker queue with publisher confirms, on one connection and
 * channel that are rebuilt after any failure. A single reference waits for its own confirm; a
 * batch is published pipelined, with one wait for all of its confirms.
 */
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class ReferencePublisher {

    private static final Logger LOG = Logger.getLogger(ReferencePublisher.class.getName());
    private static final long CONFIRM_TIMEOUT_MS = 5_000;

    @Inject
    BrokerSettings broker;

    @Inject
    Settings settings;

    private Connection connection;
    private Channel channel;
    /** message id of the last basic.return; the broker sends it before the confirm */
    private volatile String returnedId;

    /** To the work exchange, routed to the workload's queue. */
    public boolean publish(Reference reference, String workload, long ttlMs) {
        return publish(settings.workExchange(), workload, reference, ttlMs);
    }

    /** To a retry tier, from where it returns to the workload's queue after the tier's delay. */
    public boolean publishRetry(Reference reference, String workload, long tierMs, long ttlMs) {
        return publish(settings.retryTier(tierMs), workload, reference, ttlMs);
    }

    /**
     * @param ttlMs the per-message expiration, ≥ 1 (the caller never publishes a 0: RabbitMQ reads
     *     it as "expire now" and a JMS client as "never")
     * @return true once the broker confirmed the message and did not return it as unroutable
     */
    private synchronized boolean publish(String exchange, String routingKey, Reference reference, long ttlMs) {
        if (ttlMs < 1) {
            throw new IllegalArgumentException("refusing to publish " + reference.jobId() + " with ttl " + ttlMs);
        }
        AMQP.BasicProperties props = properties(reference, ttlMs);
        try {
            Channel ch = channel();
            returnedId = null;
            ch.basicPublish(exchange, routingKey, true, props, reference.toJson().getBytes(StandardCharsets.UTF_8));
            if (ch.waitForConfirms(CONFIRM_TIMEOUT_MS)) {
                return !reference.jobId().equals(returnedId);
            }
            LOG.warning("RabbitMQ nacked the reference of job " + reference.jobId());
            return false;
        } catch (IOException | TimeoutException | RuntimeException e) {
            LOG.log(Level.WARNING, "Publishing the reference of job " + reference.jobId() + " to " + broker.describe()
                    + " failed; it stays ACCEPTED for the reconciler: " + e, e);
            close();
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** One reference to publish to the work exchange, routed to its workload's queue. */
    public record Outgoing(Reference reference, String workload, long ttlMs) {
    }

    /**
     * Publishes all of them on the channel without waiting between messages, then waits once for
     * the broker's confirms (pipelined): returns the job ids the broker confirmed and did not
     * return. If the broker nacks any, none counts as confirmed (confirms of one wait are not told
     * apart); those jobs stay ACCEPTED and the reconciler publishes them again.
     */
    public synchronized List<String> publishAll(List<Outgoing> outgoing) {
        java.util.Set<String> returned = java.util.concurrent.ConcurrentHashMap.newKeySet();
        try {
            Channel ch = channel();
            com.rabbitmq.client.ReturnListener collect = ch.addReturnListener(
                    r -> returned.add(r.getProperties().getMessageId()));
            try {
                for (Outgoing o : outgoing) {
                    if (o.ttlMs() < 1) {
                        throw new IllegalArgumentException("refusing to publish " + o.reference().jobId() + " with ttl "
                                + o.ttlMs());
                    }
                    ch.basicPublish(settings.workExchange(), o.workload(), true, properties(o.reference(), o.ttlMs()),
                            o.reference().toJson().getBytes(StandardCharsets.UTF_8));
                }
                if (!ch.waitForConfirms(CONFIRM_TIMEOUT_MS)) {
                    LOG.warning("RabbitMQ nacked some of " + outgoing.size() + " references; the reconciler publishes"
                            + " them again");
                    return List.of();
                }
            } finally {
                ch.removeReturnListener(collect);
            }
            return outgoing.stream().map(o -> o.reference().jobId()).filter(id -> !returned.contains(id)).toList();
        } catch (IOException | TimeoutException | RuntimeException e) {
            LOG.log(Level.WARNING, "Publishing " + outgoing.size() + " references to " + broker.describe()
                    + " failed; they stay ACCEPTED for the reconciler: " + e, e);
            close();
            return List.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        }
    }

    private static AMQP.BasicProperties properties(Reference reference, long ttlMs) {
        return new AMQP.BasicProperties.Builder()
                .messageId(reference.jobId()).contentType("application/json").deliveryMode(2)
                .expiration(Long.toString(ttlMs)).timestamp(new Date())
                .headers(Map.of("x-lastcall-expires-at", reference.expiresAt())).build();
    }

    private Channel channel() throws IOException, TimeoutException {
        if (channel == null || !channel.isOpen()) {
            close();
            connection = broker.connectionFactory().newConnection("lastcall publisher");
            channel = connection.createChannel();
            channel.confirmSelect();
            channel.addReturnListener(r -> {
                returnedId = r.getProperties().getMessageId();
                LOG.warning("RabbitMQ returned the unroutable reference of job " + returnedId + " (exchange '"
                        + r.getExchange() + "', routing key '" + r.getRoutingKey() + "': no queue bound?): "
                        + r.getReplyText());
            });
        }
        return channel;
    }

    @PreDestroy
    synchronized void close() {
        try {
            if (connection != null && connection.isOpen()) {
                connection.close(2_000);
            }
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.FINE, "closing the publisher connection", e);
        }
        connection = null;
        channel = null;
    }
}

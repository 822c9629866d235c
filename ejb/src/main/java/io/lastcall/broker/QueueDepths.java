package io.lastcall.broker;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import io.lastcall.policy.Settings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.logging.Logger;

/**
 * How many messages wait in RabbitMQ (ready, not yet delivered) and how many consumers each
 * lastcall queue has, read with passive declares on one short-lived connection: the configured
 * workloads' work queues and the dead-letter queue. A queue that does not exist is left out.
 */
@ApplicationScoped
public class QueueDepths {

    private static final Logger LOG = Logger.getLogger(QueueDepths.class.getName());

    /** One queue as RabbitMQ reports it. */
    public record Depth(String queue, long ready, long consumers) {
    }

    @Inject
    BrokerSettings broker;

    @Inject
    Settings settings;

    /** The depths now; empty when the broker cannot be reached (the health check says why). */
    public List<Depth> read() {
        List<String> queues = new ArrayList<>(settings.workloads().stream().sorted().map(settings.topology()::workQueue).toList());
        queues.add(settings.topology().deadLetterQueue());
        List<Depth> depths = new ArrayList<>();
        try (Connection connection = broker.connect("lastcall metrics")) {
            for (String queue : queues) {
                // a failed passive declare closes its channel, so one channel per queue
                Channel channel = connection.createChannel();
                try {
                    AMQP.Queue.DeclareOk ok = channel.queueDeclarePassive(queue);
                    depths.add(new Depth(queue, ok.getMessageCount(), ok.getConsumerCount()));
                    channel.close();
                } catch (IOException missing) {
                    // not declared (yet): nothing to report for it
                }
            }
        } catch (IOException | TimeoutException e) {
            LOG.fine("queue depths not read: " + e);
        }
        return depths;
    }
}

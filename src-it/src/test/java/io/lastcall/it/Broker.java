package io.lastcall.it;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The real RabbitMQ on 127.0.0.1:5672, seen from the tests: plain AMQP publishing and
 * declaring, and live queue and consumer figures from rabbitmqctl (the management API's figures
 * lag by its statistics interval).
 */
public final class Broker {

    /** Ready and unacknowledged messages and consumers of one queue, as the broker reports them. */
    public record QueueCounts(String queue, int ready, int unacked, int consumers) {
    }

    /** The test domain's work exchange and the workloads routed through it (it-domain.env). */
    public static final String WORK_EXCHANGE = "it.lastcall.work";
    public static List<String> workloads() {
        return List.of(ItConfig.domainSetting("LASTCALL_WORKLOADS").split(","));
    }

    private Broker() {
    }

    /** Re-creates the work exchange a test deleted, with every workload queue bound as lastcall binds it. */
    public static void restoreWorkExchange() {
        withChannel(channel -> {
            channel.exchangeDeclare(WORK_EXCHANGE, "direct", true);
            for (String workload : workloads()) {
                channel.queueBind(WORK_EXCHANGE + "." + workload, WORK_EXCHANGE, workload);
            }
            return null;
        });
    }

    /** Publishes a raw message with these properties to the default exchange, routed to {@code queue}. */
    public static void publish(String queue, AMQP.BasicProperties props, byte[] body) {
        withChannel(channel -> {
            channel.confirmSelect();
            channel.basicPublish("", queue, props, body);
            try {
                channel.waitForConfirmsOrDie(5_000);
            } catch (InterruptedException | java.util.concurrent.TimeoutException e) {
                throw new IOException("publish to " + queue + " not confirmed", e);
            }
            return null;
        });
    }

    private static Connection connect() throws IOException {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost("127.0.0.1");
        factory.setPort(5672);
        try {
            return factory.newConnection("lastcall-it");
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IOException(e);
        }
    }

    public interface ChannelWork<T> {
        T run(Channel channel) throws IOException;
    }

    public static <T> T withChannel(ChannelWork<T> work) {
        try (Connection connection = connect(); Channel channel = connection.createChannel()) {
            return work.run(channel);
        } catch (IOException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("RabbitMQ on 127.0.0.1:5672: " + e, e);
        }
    }

    /** Publishes a persistent text message to the default exchange, routed to {@code queue}. */
    public static void publish(String queue, String messageId, String body) {
        withChannel(channel -> {
            channel.confirmSelect();
            channel.basicPublish("", queue, new AMQP.BasicProperties.Builder()
                    .messageId(messageId).deliveryMode(2).contentType("text/plain").build(),
                    body.getBytes(StandardCharsets.UTF_8));
            try {
                channel.waitForConfirmsOrDie(5_000);
            } catch (InterruptedException | java.util.concurrent.TimeoutException e) {
                throw new IOException("publish to " + queue + " not confirmed", e);
            }
            return null;
        });
    }

    /** Deletes and re-creates the queue (optionally dead-lettering to a fanout exchange + queue). */
    public static void freshQueue(String queue, String deadLetterExchange, String deadLetterQueue) {
        withChannel(channel -> {
            channel.queueDelete(queue);
            Map<String, Object> args = new HashMap<>();
            if (deadLetterExchange != null) {
                channel.exchangeDeclare(deadLetterExchange, "fanout", true);
                channel.queueDelete(deadLetterQueue);
                channel.queueDeclare(deadLetterQueue, true, false, false, Map.of());
                channel.queueBind(deadLetterQueue, deadLetterExchange, "");
                args.put("x-dead-letter-exchange", deadLetterExchange);
            }
            channel.queueDeclare(queue, true, false, false, args);
            return null;
        });
    }

    public static void purge(String queue) {
        withChannel(channel -> channel.queuePurge(queue));
    }

    /** Takes (and acks) every message on the queue; returns their bodies. */
    public static List<String> drain(String queue) {
        return withChannel(channel -> {
            List<String> bodies = new ArrayList<>();
            GetResponse response;
            while ((response = channel.basicGet(queue, true)) != null) {
                bodies.add(new String(response.getBody(), StandardCharsets.UTF_8));
            }
            return bodies;
        });
    }

    /**
     * Takes the next message off the queue unacknowledged (as a consumer would), holds it for
     * {@code holdMs}, then nacks it with requeue. Returns its message id, or null if the queue was empty.
     */
    public static String holdAndRequeue(String queue, long holdMs) {
        return withChannel(channel -> {
            GetResponse response = channel.basicGet(queue, false);
            if (response == null) {
                return null;
            }
            Await.sleep(holdMs);
            channel.basicNack(response.getEnvelope().getDeliveryTag(), false, true);
            return response.getProps().getMessageId();
        });
    }

    public static QueueCounts counts(String queue) {
        for (String line : rabbitmqctl("list_queues", "--no-table-headers", "name", "messages_ready", "messages_unacknowledged", "consumers")) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 4 && f[0].equals(queue)) {
                return new QueueCounts(queue, Integer.parseInt(f[1]), Integer.parseInt(f[2]), Integer.parseInt(f[3]));
            }
        }
        throw new IllegalStateException("queue " + queue + " not found on the broker");
    }

    /** The prefetch count of each consumer on the queue. */
    public static List<Integer> consumerPrefetch(String queue) {
        List<Integer> prefetch = new ArrayList<>();
        for (String line : rabbitmqctl("list_consumers", "--no-table-headers", "queue_name", "prefetch_count")) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 2 && f[0].equals(queue)) {
                prefetch.add(Integer.parseInt(f[1]));
            }
        }
        return prefetch;
    }

    /** Runs rabbitmqctl (the broker's own CLI) and returns its output lines. */
    public static List<String> rabbitmqctl(String... args) {
        List<String> command = new ArrayList<>();
        command.add(new java.io.File("/usr/sbin/rabbitmqctl").canExecute() ? "/usr/sbin/rabbitmqctl" : "rabbitmqctl");
        command.add("-q");
        command.addAll(List.of(args));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out;
            try (InputStream in = process.getInputStream()) {
                out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException("rabbitmqctl " + String.join(" ", args) + " failed: " + out);
            }
            return out.lines().toList();
        } catch (IOException e) {
            throw new IllegalStateException("cannot run rabbitmqctl: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}

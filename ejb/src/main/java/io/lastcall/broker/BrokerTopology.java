package io.lastcall.broker;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ShutdownSignalException;
import io.lastcall.policy.Settings;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.Timeout;
import jakarta.ejb.TimerConfig;
import jakarta.ejb.TimerService;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.io.IOException;
import io.lastcall.broker.ConsumerStatus;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.logging.Logger;

/**
 * Declares lastcall's topology at startup, idempotently, from configuration (docs/design.md §4):
 * <pre>
 *   work exchange (direct) --workload--> work queue per workload (x-message-ttl = ttl cap)
 *   every work queue       --dead letters--> dead-letter exchange (fanout) --> dead-letter queue
 *   retry tier T (fanout exchange + queue, x-message-ttl = T) --expired--> work exchange
 * </pre>
 * With {@code lastcall.broker.queue-type=quorum}, queues are quorum queues and dead-letter
 * at-least-once with reject-publish overflow. A queue that exists with other arguments is a
 * startup error naming it and the argument. An unreachable broker is retried every 10 s.
 */
@Singleton
@Startup
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class BrokerTopology {

    private static final Logger LOG = Logger.getLogger(BrokerTopology.class.getName());
    private static final long RETRY_MS = 10_000;

    @Inject
    BrokerSettings broker;

    @Inject
    Settings settings;

    @Resource
    TimerService timers;

    private volatile boolean declared;
    private volatile String lastProblem = "not declared yet";

    @PostConstruct
    void declareAtStartup() {
        declareOrRetry();
    }

    @Timeout
    void retry() {
        declareOrRetry();
    }

    /**
     * Whether lastcall can work with the broker now, from one reading of the consumers' status: every
     * consumer connected, the topology declared, no queue lastcall needs missing, no configured
     * workload's queue left unconsumed. {@code /api/health} and the readiness check both show it.
     *
     * @param missingQueues queues lastcall needs (the configured workloads' work queues and the
     *     dead-letter queue) that a consumer reports it cannot consume now; other missing queues are
     *     only reported per activation
     * @param unconsumedWorkQueues work queues of configured workloads that no activation consumes: a
     *     configuration error (add them to {@code lastcall.worker.queue}); their jobs would expire
     */
    public record Readiness(List<ConsumerStatus.Activation> activations, boolean consumersConnected,
            boolean topologyDeclared, String topologyError, List<String> missingQueues,
            List<String> unconsumedWorkQueues) {
        public boolean up() {
            return consumersConnected && topologyDeclared && missingQueues.isEmpty() && unconsumedWorkQueues.isEmpty();
        }
    }

    public Readiness readiness() {
        List<ConsumerStatus.Activation> activations = ConsumerStatus.activations();
        boolean connected = !activations.isEmpty()
                && activations.stream().allMatch(ConsumerStatus.Activation::connected);
        Set<String> workQueues = settings.workloads().stream().map(settings.topology()::workQueue).collect(Collectors.toSet());
        Set<String> consumed = activations.stream().flatMap(a -> Arrays.stream(a.queue().split(",")))
                .map(String::trim).collect(Collectors.toSet());
        List<String> unconsumed = workQueues.stream().filter(q -> !consumed.contains(q)).sorted().toList();
        List<String> missing = activations.stream().flatMap(a -> a.missingQueues().stream())
                .filter(q -> workQueues.contains(q) || q.equals(settings.topology().deadLetterQueue())).distinct().sorted()
                .toList();
        return new Readiness(activations, connected, declared, declared ? null : lastProblem, missing, unconsumed);
    }

    private void declareOrRetry() {
        try {
            List<String> queues = declare();
            declared = true;
            LOG.info("RabbitMQ topology declared on " + broker.describe() + " (" + settings.topology().queueType() + "): "
                    + String.join(", ", queues));
        } catch (IOException | TimeoutException | ShutdownSignalException e) {
            lastProblem = conflictOrCause(e);
            LOG.warning("RabbitMQ topology not declared on " + broker.describe() + ": " + lastProblem
                    + "; retrying in " + RETRY_MS / 1000 + " s");
            timers.createSingleActionTimer(RETRY_MS, new TimerConfig(null, false));
        }
    }

    private List<String> declare() throws IOException, TimeoutException {
        List<String> declaredQueues = new ArrayList<>();
        try (Connection connection = broker.connect("lastcall topology");
                Channel channel = connection.createChannel()) {
            channel.exchangeDeclare(settings.topology().deadLetterExchange(), "fanout", true);
            queue(channel, settings.topology().deadLetterQueue(), Map.of());
            channel.queueBind(settings.topology().deadLetterQueue(), settings.topology().deadLetterExchange(), "");
            declaredQueues.add(settings.topology().deadLetterQueue());

            channel.exchangeDeclare(settings.topology().workExchange(), "direct", true);
            for (String workload : settings.workloads()) {
                String queue = settings.topology().workQueue(workload);
                Map<String, Object> args = new HashMap<>();
                args.put("x-message-ttl", settings.workloadOrDefault(workload).ttlCapMs());
                args.put("x-dead-letter-exchange", settings.topology().deadLetterExchange());
                if (quorum()) {
                    args.put("x-dead-letter-strategy", "at-least-once");
                    args.put("x-overflow", "reject-publish");
                }
                queue(channel, queue, args);
                channel.queueBind(queue, settings.topology().workExchange(), workload);
                declaredQueues.add(queue);
            }
            for (long tier : settings.topology().retryTiersMs()) {
                String name = settings.topology().retryTier(tier);
                channel.exchangeDeclare(name, "fanout", true);
                // per-queue TTL: every message of a tier waits the same time, so none blocks the head
                queue(channel, name, Map.of("x-message-ttl", tier, "x-dead-letter-exchange", settings.topology().workExchange()));
                channel.queueBind(name, name, "");
                declaredQueues.add(name);
            }
        }
        return declaredQueues;
    }

    private boolean quorum() {
        return "quorum".equalsIgnoreCase(settings.topology().queueType());
    }

    private void queue(Channel channel, String name, Map<String, Object> args) throws IOException {
        Map<String, Object> all = new HashMap<>(args);
        if (quorum()) {
            all.put("x-queue-type", "quorum");
        }
        channel.queueDeclare(name, true, false, false, all);
    }

    /** A 406 means a queue exists with other arguments: RabbitMQ's text names the queue and argument. */
    private static String conflictOrCause(Exception e) {
        Throwable cause = e instanceof ShutdownSignalException ? e : e.getCause();
        if (cause instanceof ShutdownSignalException signal && signal.getMessage() != null
                && signal.getMessage().contains("PRECONDITION_FAILED")) {
            String text = signal.getMessage();
            int start = text.indexOf("PRECONDITION_FAILED");
            return "conflicting topology: " + text.substring(start, text.indexOf(',', start) > 0
                    ? text.indexOf(',', start) : text.length())
                    + " - delete that queue or align lastcall's settings with it";
        }
        return e.getClass().getSimpleName() + ": " + e.getMessage();
    }
}

package io.lastcall.broker;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ShutdownSignalException;
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
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.logging.Logger;
import io.lastcall.policy.Settings;

/**
 * Declares, idempotently, the queues lastcall consumes: the worker queue, dead-lettering to
 * {@code lastcall.dlx} and its queue. If the broker is not reachable at deploy time the
 * declaration is retried every 10 s (the MDB consumers retry on their own meanwhile).
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

    public boolean declared() {
        return declared;
    }

    public String lastProblem() {
        return declared ? "" : lastProblem;
    }

    private void declareOrRetry() {
        try {
            declare();
            declared = true;
            LOG.info("RabbitMQ topology declared on " + broker.describe() + ": queue '" + settings.workerQueue()
                    + "' dead-lettering to '" + settings.deadLetterExchange() + "' -> '" + settings.deadLetterQueue()
                    + "'");
        } catch (IOException | TimeoutException | ShutdownSignalException e) {
            lastProblem = conflictOrCause(e);
            LOG.warning("RabbitMQ topology not declared on " + broker.describe() + ": " + lastProblem
                    + "; retrying in " + RETRY_MS / 1000 + " s");
            timers.createSingleActionTimer(RETRY_MS, new TimerConfig(null, false));
        }
    }

    private void declare() throws IOException, TimeoutException {
        try (Connection connection = broker.connectionFactory().newConnection("lastcall topology");
                Channel channel = connection.createChannel()) {
            channel.exchangeDeclare(settings.deadLetterExchange(), "fanout", true);
            channel.queueDeclare(settings.deadLetterQueue(), true, false, false, Map.of());
            channel.queueBind(settings.deadLetterQueue(), settings.deadLetterExchange(), "");
            channel.queueDeclare(settings.workerQueue(), true, false, false,
                    Map.of("x-dead-letter-exchange", settings.deadLetterExchange()));
        }
    }

    /** A 406 means a queue exists with other arguments: say which, instead of a stack trace. */
    private static String conflictOrCause(Exception e) {
        Throwable cause = e instanceof ShutdownSignalException ? e : e.getCause();
        if (cause instanceof ShutdownSignalException signal && signal.getMessage() != null
                && signal.getMessage().contains("PRECONDITION_FAILED")) {
            return "an existing queue or exchange has conflicting arguments (" + signal.getMessage()
                    + "); delete it or align lastcall's settings";
        }
        return e.getClass().getSimpleName() + ": " + e.getMessage();
    }
}

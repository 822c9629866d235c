package io.lastcall.connector;

import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.lang.reflect.Method;

/**
 * Delivers one message to one MDB instance and says whether it may be acknowledged.
 *
 * <p>For a transacted endpoint (REQUIRED) the container's transaction spans {@code onMessage};
 * {@code afterDelivery()} returns normally even when that transaction rolled back, so commit is
 * observed with an interposed synchronization and only a {@code STATUS_COMMITTED} counts.
 */
final class EndpointDelivery {

    static final Method ON_MESSAGE;

    static {
        try {
            ON_MESSAGE = MessageListener.class.getMethod("onMessage", Message.class);
        } catch (NoSuchMethodException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** null when the message may be acknowledged, else why not. */
    record Result(String failure) {
        static final Result OK = new Result(null);

        boolean ok() {
            return failure == null;
        }
    }

    private final MessageEndpointFactory factory;
    private final TransactionSynchronizationRegistry registry;
    private final boolean transacted;

    EndpointDelivery(MessageEndpointFactory factory, TransactionSynchronizationRegistry registry) {
        this.factory = factory;
        this.registry = registry;
        try {
            this.transacted = factory.isDeliveryTransacted(ON_MESSAGE);
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException("The endpoint is not a jakarta.jms.MessageListener: " + e, e);
        }
    }

    boolean transacted() {
        return transacted;
    }

    Result deliver(Message message) {
        MessageEndpoint endpoint;
        try {
            endpoint = factory.createEndpoint(null);
        } catch (ResourceException e) {
            return new Result("endpoint unavailable: " + e);
        }
        try {
            return transacted ? deliverInTransaction(endpoint, message) : invoke(endpoint, message);
        } finally {
            endpoint.release();
        }
    }

    private Result deliverInTransaction(MessageEndpoint endpoint, Message message) {
        try {
            endpoint.beforeDelivery(ON_MESSAGE);
        } catch (NoSuchMethodException | ResourceException e) {
            return new Result("beforeDelivery failed: " + e);
        }
        CommitWatch watch = new CommitWatch();
        String watchProblem = watch.register(registry);
        Result result = invoke(endpoint, message);
        try {
            endpoint.afterDelivery();
        } catch (ResourceException e) {
            return result.ok() ? new Result("afterDelivery failed: " + e) : result;
        }
        if (!result.ok()) {
            return result;
        }
        if (watchProblem != null) {
            return new Result(watchProblem);
        }
        return watch.committed() ? Result.OK
                : new Result("transaction did not commit (status " + watch.status + ")");
    }

    private static Result invoke(MessageEndpoint endpoint, Message message) {
        try {
            ((MessageListener) endpoint).onMessage(message);
            return Result.OK;
        } catch (RuntimeException | Error e) {
            return new Result("onMessage threw " + rootCause(e));
        }
    }

    private static String rootCause(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == e ? e.toString() : e.getClass().getSimpleName() + " caused by " + root;
    }

    /** Remembers how the delivery's transaction completed. */
    private static final class CommitWatch implements Synchronization {
        private volatile int status = Status.STATUS_UNKNOWN;

        /** Registers with the current transaction; returns a problem description, or null. */
        String register(TransactionSynchronizationRegistry registry) {
            if (registry == null) {
                return "the container offers no TransactionSynchronizationRegistry: commit cannot be"
                        + " observed, so the message is not acknowledged";
            }
            try {
                registry.registerInterposedSynchronization(this);
                return null;
            } catch (IllegalStateException e) {
                return "no transaction active after beforeDelivery: " + e.getMessage();
            }
        }

        boolean committed() {
            return status == Status.STATUS_COMMITTED;
        }

        @Override
        public void beforeCompletion() {
        }

        @Override
        public void afterCompletion(int completionStatus) {
            status = completionStatus;
        }
    }
}

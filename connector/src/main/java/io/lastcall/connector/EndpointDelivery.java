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
import java.util.List;
import java.util.Set;

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

    /**
     * {@code failure} null when the message may be acknowledged, else why not; {@code pause} when
     * the failure is one of the activation's {@code pauseOn} exceptions: not the message's fault.
     */
    record Result(String failure, boolean pause) {
        static final Result OK = new Result(null, false);

        Result(String failure) {
            this(failure, false);
        }

        boolean ok() {
            return failure == null;
        }
    }

    private final MessageEndpointFactory factory;
    private final TransactionSynchronizationRegistry registry;
    private final boolean transacted;
    private final List<String> pauseOn;

    EndpointDelivery(MessageEndpointFactory factory, TransactionSynchronizationRegistry registry,
            List<String> pauseOn) {
        this.factory = factory;
        this.registry = registry;
        this.pauseOn = List.copyOf(pauseOn);
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

    private Result invoke(MessageEndpoint endpoint, Message message) {
        try {
            ((MessageListener) endpoint).onMessage(message);
            return Result.OK;
        } catch (RuntimeException | Error e) {
            return new Result("onMessage threw " + rootCause(e), pauses(e, pauseOn));
        }
    }

    /** Whether a class named in {@code pauseOn} (or one it extends) is anywhere in the cause chain. */
    static boolean pauses(Throwable e, List<String> pauseOn) {
        if (pauseOn.isEmpty()) {
            return false;
        }
        Set<Throwable> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (Throwable t = e; t != null && seen.add(t); t = t.getCause()) {
            for (Class<?> c = t.getClass(); c != null; c = c.getSuperclass()) {
                if (pauseOn.contains(c.getName())) {
                    return true;
                }
            }
        }
        return false;
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

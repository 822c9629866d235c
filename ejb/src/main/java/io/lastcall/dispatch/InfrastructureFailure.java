package io.lastcall.dispatch;

import jakarta.persistence.LockTimeoutException;
import jakarta.persistence.PessimisticLockException;
import jakarta.persistence.QueryTimeoutException;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * A failure of what lastcall runs on — the database unreachable, its pool exhausted, a lock
 * timeout — rather than of the message being processed. The MDBs throw it so that the RabbitMQ
 * adapter (activation property {@code pauseOn}) holds the message and backs off instead of
 * counting a redelivery: a database restart must not quarantine or drop a backlog.
 */
public class InfrastructureFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** SQLSTATE classes of connection trouble, resources, operator intervention and rollbacks/deadlocks. */
    private static final Set<String> TRANSIENT_SQL_STATE_CLASSES = Set.of("08", "53", "57", "40", "HY");

    public InfrastructureFailure(String message, Throwable cause) {
        super(message, cause);
    }

    /** Whether the cause chain says "infrastructure", without asking anything else. */
    public static boolean isInfrastructure(Throwable e) {
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable t = e; t != null && seen.add(t); t = t.getCause()) {
            if (t instanceof InfrastructureFailure || t instanceof SQLTransientException
                    || t instanceof SQLRecoverableException || t instanceof LockTimeoutException
                    || t instanceof PessimisticLockException || t instanceof QueryTimeoutException
                    || t instanceof java.net.ConnectException || t instanceof jakarta.resource.ResourceException) {
                return true;
            }
            if (t instanceof SQLException sql && sql.getSQLState() != null && sql.getSQLState().length() >= 2
                    && TRANSIENT_SQL_STATE_CLASSES.contains(sql.getSQLState().substring(0, 2))) {
                return true;
            }
        }
        return false;
    }
}

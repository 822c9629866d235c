package io.lastcall.dispatch;

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

    /**
     * SQLSTATE classes of connection trouble (08), insufficient resources (53), operator
     * intervention such as a shutdown (57) and rollbacks: serialization failures and deadlocks (40).
     */
    private static final Set<String> TRANSIENT_SQL_STATE_CLASSES = Set.of("08", "53", "57", "40");
    /** lock timeouts: PostgreSQL's lock_not_available, H2's timeout */
    private static final Set<String> TRANSIENT_SQL_STATES = Set.of("55P03", "HYT00");

    public InfrastructureFailure(String message, Throwable cause) {
        super(message, cause);
    }

    /** Whether the cause chain says "infrastructure", without asking anything else. */
    public static boolean isInfrastructure(Throwable e) {
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable t = e; t != null && seen.add(t); t = t.getCause()) {
            // JPA's lock exception types are not evidence: EclipseLink wraps any error of a locking query in them
            if (t instanceof InfrastructureFailure || t instanceof SQLTransientException
                    || t instanceof SQLRecoverableException || t instanceof java.net.ConnectException
                    || t instanceof jakarta.resource.ResourceException) {
                return true;
            }
            if (t instanceof SQLException sql && sql.getSQLState() != null) {
                String state = sql.getSQLState();
                if (TRANSIENT_SQL_STATES.contains(state)
                        || state.length() >= 2 && TRANSIENT_SQL_STATE_CLASSES.contains(state.substring(0, 2))) {
                    return true;
                }
            }
        }
        return false;
    }
}

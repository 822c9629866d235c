package io.lastcall.dispatch;

import io.lastcall.schema.DatabaseProbe;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.util.logging.Logger;

/**
 * Decides whether a failure in an MDB was the message's or the infrastructure's: the cause
 * chain first, then a round trip to the database (a failure while the database does not answer
 * is never the message's fault).
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class FailureTriage {

    private static final Logger LOG = Logger.getLogger(FailureTriage.class.getName());

    @EJB
    DatabaseProbe database;

    /** {@code e} as an {@link InfrastructureFailure} if it is one, else {@code e} itself. */
    public RuntimeException classify(RuntimeException e, String what) {
        if (InfrastructureFailure.isInfrastructure(e)) {
            return e instanceof InfrastructureFailure ? e : new InfrastructureFailure(what + ": " + e, e);
        }
        try {
            database.check();
        } catch (RuntimeException databaseDown) {
            LOG.fine(() -> what + " failed while the database does not answer: " + databaseDown);
            return new InfrastructureFailure(what + " failed while the database does not answer: " + databaseDown, e);
        }
        return e;
    }
}

package io.lastcall.dispatch;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.persistence.PessimisticLockException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;

class InfrastructureFailureTest {

    private static RuntimeException wrapped(Throwable cause) {
        return new IllegalStateException("EJBException", new PessimisticLockException("EclipseLink-4002", cause));
    }

    @Test
    void connectionTroubleShutdownsDeadlocksAndLockTimeoutsAreInfrastructure() {
        assertTrue(InfrastructureFailure.isInfrastructure(wrapped(new SQLException("refused", "08001"))));
        assertTrue(InfrastructureFailure.isInfrastructure(wrapped(new SQLException("admin shutdown", "57P01"))));
        assertTrue(InfrastructureFailure.isInfrastructure(wrapped(new SQLException("deadlock", "40P01"))));
        assertTrue(InfrastructureFailure.isInfrastructure(wrapped(new SQLException("lock timeout", "55P03"))));
        assertTrue(InfrastructureFailure.isInfrastructure(wrapped(new SQLException("h2 lock timeout", "HYT00"))));
        assertTrue(InfrastructureFailure.isInfrastructure(new RuntimeException(new SQLTransientConnectionException())));
    }

    @Test
    void whatTheMessageCausedIsNotEvenInsideALockException() {
        assertFalse(InfrastructureFailure.isInfrastructure(wrapped(new SQLException("invalid byte 0x00", "22021"))),
                "EclipseLink wraps any error of a locking query in PessimisticLockException");
        assertFalse(InfrastructureFailure.isInfrastructure(new IllegalArgumentException("bad body")));
        assertFalse(InfrastructureFailure.isInfrastructure(wrapped(new SQLException("general", "HY000"))));
    }
}

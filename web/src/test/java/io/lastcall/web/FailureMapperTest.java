package io.lastcall.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.ejb.EJBException;
import jakarta.persistence.PersistenceException;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

class FailureMapperTest {

    @Test
    void aFailureCausedBySqlOrPersistenceAnywhereInTheChainIsTheLedgers() {
        assertTrue(FailureMapper.ledgerFailure(new EJBException(new PersistenceException("tx",
                new SQLException("Connection refused")))));
        assertTrue(FailureMapper.ledgerFailure(new IllegalStateException(new SQLException("pool exhausted"))));
    }

    @Test
    void anyOtherFailureIsNot() {
        assertFalse(FailureMapper.ledgerFailure(new EJBException(new IllegalStateException("a bug"))));
        assertFalse(FailureMapper.ledgerFailure(new NullPointerException()));
    }

    @Test
    void aLedgerFailureIsAnsweredRetryableAndAnyOtherAsTheServersOwn() {
        Refused ledger = FailureMapper.failure(new EJBException(new PersistenceException("down")));
        assertEquals(503, ledger.status());
        assertEquals("LEDGER_UNAVAILABLE", ledger.refusal().reason());
        Refused bug = FailureMapper.failure(new IllegalStateException("a bug"));
        assertEquals(500, bug.status());
        assertEquals("INTERNAL_ERROR", bug.refusal().reason());
        assertTrue(bug.refusal().message().contains("incident"), bug.refusal().message());
    }
}

package io.lastcall.connector;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class EndpointDeliveryTest {

    /** Stands for an application's own "infrastructure is down" exception. */
    static class DatabaseDown extends RuntimeException {
        private static final long serialVersionUID = 1L;
    }

    static class PrimaryDown extends DatabaseDown {
        private static final long serialVersionUID = 1L;
    }

    private static final List<String> PAUSE_ON = List.of(DatabaseDown.class.getName());

    @Test
    void aPauseOnExceptionAnywhereInTheCauseChainPauses() {
        assertTrue(EndpointDelivery.pauses(new DatabaseDown(), PAUSE_ON));
        assertTrue(EndpointDelivery.pauses(new IllegalStateException("container wrapper", new DatabaseDown()), PAUSE_ON));
        assertTrue(EndpointDelivery.pauses(new PrimaryDown(), PAUSE_ON), "a subclass counts");
    }

    @Test
    void anyOtherFailureCountsAsTheMessages() {
        assertFalse(EndpointDelivery.pauses(new IllegalArgumentException("bad body"), PAUSE_ON));
        assertFalse(EndpointDelivery.pauses(new DatabaseDown(), List.of()), "nothing pauses unless configured");
    }
}

package io.lastcall.connector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RedeliveryTrackerTest {

    @Test
    void aMessageGetsOneDeliveryPlusMaxRedeliveries() {
        RedeliveryTracker tracker = new RedeliveryTracker(2);
        assertTrue(tracker.failedMayRequeue("m", null), "1st failure: redeliver");
        assertTrue(tracker.failedMayRequeue("m", null), "2nd failure: redeliver");
        assertFalse(tracker.failedMayRequeue("m", null), "3rd failure: reject");
        assertEquals(0, tracker.failuresSoFar("m", null), "forgotten once rejected");
    }

    @Test
    void zeroRedeliveriesRejectsTheFirstFailure() {
        assertFalse(new RedeliveryTracker(0).failedMayRequeue("m", null));
    }

    @Test
    void successForgetsTheCount() {
        RedeliveryTracker tracker = new RedeliveryTracker(1);
        assertTrue(tracker.failedMayRequeue("m", null));
        tracker.succeeded("m");
        assertTrue(tracker.failedMayRequeue("m", null));
    }

    @Test
    void theBrokersDeliveryCountSurvivesARestartOfTheTracker() {
        RedeliveryTracker fresh = new RedeliveryTracker(2);
        assertEquals(2, fresh.failuresSoFar("m", 2));
        assertFalse(fresh.failedMayRequeue("m", 2), "a quorum queue already delivered it twice");
    }

    @Test
    void messagesAreCountedSeparately() {
        RedeliveryTracker tracker = new RedeliveryTracker(1);
        assertTrue(tracker.failedMayRequeue("a", null));
        assertTrue(tracker.failedMayRequeue("b", null));
        assertFalse(tracker.failedMayRequeue("a", null));
    }
}

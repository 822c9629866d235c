package io.lastcall.job;

import static io.lastcall.job.DeadlineSemantics.LATEST_START;
import static io.lastcall.job.DeadlineSemantics.LATEST_USEFUL_COMPLETION;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DeadlineTest {

    @Test
    void clockMarginScenario() {
        // docs/design.md §3.3, the clock-margin case: worker time 10,000, deadline 10,080: admitted with margin 0, rejected with margin 100
        assertTrue(Deadline.mayDispatch(10_080, 10_000, 0, LATEST_START, 0));
        assertEquals(80, Deadline.remainingForDispatch(10_080, 10_000, 0, LATEST_START, 0));
        assertFalse(Deadline.mayDispatch(10_080, 10_000, 100, LATEST_START, 0));
        assertEquals(-20, Deadline.remainingForDispatch(10_080, 10_000, 100, LATEST_START, 0));
    }

    @Test
    void exactlyAtTheDeadlineIsTooLate() {
        assertFalse(Deadline.mayDispatch(10_000, 10_000, 0, LATEST_START, 0));
        assertTrue(Deadline.mayDispatch(10_000, 9_999, 0, LATEST_START, 0), "1 ms before");
        assertFalse(Deadline.mayDispatch(10_000, 10_001, 0, LATEST_START, 0), "1 ms after");
    }

    @Test
    void usefulCompletionReservesTheMinimumExecution() {
        assertEquals(500, Deadline.remainingForDispatch(10_000, 8_000, 500, LATEST_USEFUL_COMPLETION, 1_000));
        assertFalse(Deadline.mayDispatch(10_000, 8_000, 0, LATEST_USEFUL_COMPLETION, 2_000));
        assertTrue(Deadline.mayDispatch(10_000, 8_000, 0, LATEST_USEFUL_COMPLETION, 1_999));
        assertEquals(2_000, Deadline.remainingForDispatch(10_000, 8_000, 0, LATEST_START, 1_000),
                "min_execution_ms does not apply to LATEST_START");
    }

    @Test
    void negativeMarginsCountAsZero() {
        assertEquals(80, Deadline.remainingForDispatch(10_080, 10_000, -500, LATEST_USEFUL_COMPLETION, -7));
    }

    @Test
    void extremeValuesSaturateInsteadOfOverflowing() {
        assertEquals(Long.MIN_VALUE, Deadline.remainingForDispatch(Long.MIN_VALUE, 1, 0, LATEST_START, 0));
        assertEquals(Long.MAX_VALUE, Deadline.remainingForDispatch(Long.MAX_VALUE, -1, 0, LATEST_START, 0));
        assertFalse(Deadline.mayDispatch(0, Long.MAX_VALUE, Long.MAX_VALUE, LATEST_USEFUL_COMPLETION, Long.MAX_VALUE));
        assertTrue(Deadline.mayDispatch(Long.MAX_VALUE, 0, 0, LATEST_START, 0));
    }

    @Test
    void publishTtlIsTheRemainingDispatchableLifetimeCappedAndNeverZero() {
        long remaining = Deadline.remainingForDispatch(15_000, 10_000, 50, LATEST_USEFUL_COMPLETION, 1_000);
        assertEquals(3_950, Deadline.publishTtlMs(remaining, 60_000), "margin and min execution come off");
        assertEquals(1_000, Deadline.publishTtlMs(5_000, 1_000), "capped by the queue's TTL");
        assertEquals(5_000, Deadline.publishTtlMs(5_000, 0), "no cap");
        assertEquals(1, Deadline.publishTtlMs(1, 60_000));
        assertEquals(0, Deadline.publishTtlMs(0, 60_000), "nothing left: do not publish");
        assertEquals(0, Deadline.publishTtlMs(-1_000, 60_000));
    }

    @Test
    void lateOnlyForUsefulCompletion() {
        assertTrue(Deadline.isLate(10_000, 10_001, LATEST_USEFUL_COMPLETION));
        assertFalse(Deadline.isLate(10_000, 10_000, LATEST_USEFUL_COMPLETION));
        assertFalse(Deadline.isLate(10_000, 99_000, LATEST_START));
    }
}

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
        assertTrue(new Deadline(10_080, LATEST_START, 0).mayDispatch(10_000, 0));
        assertEquals(80, new Deadline(10_080, LATEST_START, 0).remainingForDispatch(10_000, 0));
        assertFalse(new Deadline(10_080, LATEST_START, 0).mayDispatch(10_000, 100));
        assertEquals(-20, new Deadline(10_080, LATEST_START, 0).remainingForDispatch(10_000, 100));
    }

    @Test
    void exactlyAtTheDeadlineIsTooLate() {
        assertFalse(new Deadline(10_000, LATEST_START, 0).mayDispatch(10_000, 0));
        assertTrue(new Deadline(10_000, LATEST_START, 0).mayDispatch(9_999, 0), "1 ms before");
        assertFalse(new Deadline(10_000, LATEST_START, 0).mayDispatch(10_001, 0), "1 ms after");
    }

    @Test
    void usefulCompletionReservesTheMinimumExecution() {
        assertEquals(500, new Deadline(10_000, LATEST_USEFUL_COMPLETION, 1_000).remainingForDispatch(8_000, 500));
        assertFalse(new Deadline(10_000, LATEST_USEFUL_COMPLETION, 2_000).mayDispatch(8_000, 0));
        assertTrue(new Deadline(10_000, LATEST_USEFUL_COMPLETION, 1_999).mayDispatch(8_000, 0));
        assertEquals(2_000, new Deadline(10_000, LATEST_START, 1_000).remainingForDispatch(8_000, 0),
                "min_execution_ms does not apply to LATEST_START");
    }

    @Test
    void negativeMarginsCountAsZero() {
        assertEquals(80, new Deadline(10_080, LATEST_USEFUL_COMPLETION, -7).remainingForDispatch(10_000, -500));
    }

    @Test
    void extremeValuesSaturateInsteadOfOverflowing() {
        assertEquals(Long.MIN_VALUE, new Deadline(Long.MIN_VALUE, LATEST_START, 0).remainingForDispatch(1, 0));
        assertEquals(Long.MAX_VALUE, new Deadline(Long.MAX_VALUE, LATEST_START, 0).remainingForDispatch(-1, 0));
        assertFalse(new Deadline(0, LATEST_USEFUL_COMPLETION, Long.MAX_VALUE).mayDispatch(Long.MAX_VALUE, Long.MAX_VALUE));
        assertTrue(new Deadline(Long.MAX_VALUE, LATEST_START, 0).mayDispatch(0, 0));
    }

    @Test
    void publishTtlIsTheRemainingDispatchableLifetimeCappedAndNeverZero() {
        long remaining = new Deadline(15_000, LATEST_USEFUL_COMPLETION, 1_000).remainingForDispatch(10_000, 50);
        assertEquals(3_950, Deadline.publishTtlMs(remaining, 60_000), "margin and min execution come off");
        assertEquals(1_000, Deadline.publishTtlMs(5_000, 1_000), "capped by the queue's TTL");
        assertEquals(5_000, Deadline.publishTtlMs(5_000, 0), "no cap");
        assertEquals(1, Deadline.publishTtlMs(1, 60_000));
        assertEquals(0, Deadline.publishTtlMs(0, 60_000), "nothing left: do not publish");
        assertEquals(0, Deadline.publishTtlMs(-1_000, 60_000));
    }

    @Test
    void lateOnlyForUsefulCompletion() {
        assertTrue(new Deadline(10_000, LATEST_USEFUL_COMPLETION, 0).isLateAt(10_001));
        assertFalse(new Deadline(10_000, LATEST_USEFUL_COMPLETION, 0).isLateAt(10_000));
        assertFalse(new Deadline(10_000, LATEST_START, 0).isLateAt(99_000));
    }

    @Test
    void theLastDispatchInstantIsWhereTheRemainingLifetimeEnds() {
        Deadline useful = new Deadline(10_000, LATEST_USEFUL_COMPLETION, 1_000);
        assertEquals(8_900, useful.lastDispatchAt(100), "deadline − margin − minimum execution");
        assertEquals(1, useful.remainingForDispatch(8_899, 100));
        assertEquals(0, useful.remainingForDispatch(8_900, 100), "at that instant it is too late");
        assertEquals(9_900, new Deadline(10_000, LATEST_START, 1_000).lastDispatchAt(100), "nothing reserved");
    }

    @Test
    void theCallTimeoutIsTheMaximumExecutionOrTheDeadlinePlusGrace() {
        assertEquals(60_000, Deadline.latestStart(10_000).callTimeoutMs(9_000, 60_000, 30_000), "LATEST_START: as long as allowed");
        Deadline useful = new Deadline(10_000, LATEST_USEFUL_COMPLETION, 500);
        assertEquals(31_000, useful.callTimeoutMs(9_000, 60_000, 30_000), "until the deadline plus the late grace");
        assertEquals(5_000, useful.callTimeoutMs(9_000, 5_000, 30_000), "never past the maximum execution");
        assertEquals(30_000, useful.callTimeoutMs(20_000, 60_000, 30_000), "started after the deadline: the grace");
        assertEquals(1, useful.callTimeoutMs(20_000, 60_000, 0), "at least 1 ms");
        assertEquals(9_000 + 31_000, useful.resultDueBy(9_000, 60_000, 30_000));
    }
}

package io.lastcall.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lastcall.policy.DispatchOrder;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class PermitQueueTest {

    private final AtomicLong now = new AtomicLong(1_000_000);
    private final List<String> granted = new CopyOnWriteArrayList<>();

    private Thread waiter(PermitQueue permits, String name, long deadlineAt) {
        Thread t = new Thread(() -> {
            try {
                if (permits.acquire(deadlineAt)) {
                    granted.add(name);
                } else {
                    granted.add(name + ":none");
                }
            } catch (InterruptedException e) {
                granted.add(name + ":interrupted");
            }
        });
        t.start();
        return t;
    }

    private static void awaitWaiting(PermitQueue permits, int n) throws InterruptedException {
        for (int i = 0; i < 500 && permits.waiting() != n; i++) {
            Thread.sleep(5);
        }
        assertEquals(n, permits.waiting());
    }

    @Test
    void edfGivesAFreedPermitToTheEarliestDeadlineNotTheFirstArrival() throws Exception {
        PermitQueue permits = new PermitQueue(1, DispatchOrder.EDF, now::get);
        assertTrue(permits.acquire(now.get() + 1));
        Thread late = waiter(permits, "late", now.get() + 60_000);
        awaitWaiting(permits, 1);
        Thread early = waiter(permits, "early", now.get() + 30_000);
        awaitWaiting(permits, 2);

        permits.release();
        early.join(5_000);
        assertEquals(List.of("early"), granted);
        assertEquals(1, permits.waiting());
        permits.release();
        late.join(5_000);
        assertEquals(List.of("early", "late"), granted);
    }

    @Test
    void tryAcquireTakesAFreePermitButNeverOneAWaiterIsOwed() throws Exception {
        PermitQueue permits = new PermitQueue(1, DispatchOrder.EDF, now::get);
        assertTrue(permits.tryAcquire());
        assertFalse(permits.tryAcquire(), "none free");
        Thread waiting = waiter(permits, "waiting", now.get() + 60_000);
        awaitWaiting(permits, 1);

        permits.release();
        waiting.join(5_000);
        assertEquals(List.of("waiting"), granted, "the freed permit went to the waiter");
        assertFalse(permits.tryAcquire());
        permits.release();
        assertTrue(permits.tryAcquire(), "free again, nobody waiting");
        assertEquals(1, permits.inUse());
    }

    @Test
    void fifoGivesItToTheFirstArrival() throws Exception {
        PermitQueue permits = new PermitQueue(1, DispatchOrder.FIFO, now::get);
        assertTrue(permits.acquire(now.get() + 1));
        Thread late = waiter(permits, "late", now.get() + 60_000);
        awaitWaiting(permits, 1);
        waiter(permits, "early", now.get() + 30_000);
        awaitWaiting(permits, 2);

        permits.release();
        late.join(5_000);
        assertEquals(List.of("late"), granted);
    }

    @Test
    void aWaiterWhoseDeadlinePassedIsPassedOverForOneThatCanStillMakeIt() throws Exception {
        PermitQueue permits = new PermitQueue(1, DispatchOrder.EDF, now::get);
        assertTrue(permits.acquire(now.get() + 1));
        Thread doomed = waiter(permits, "doomed", now.get() + 100);
        awaitWaiting(permits, 1);
        Thread viable = waiter(permits, "viable", now.get() + 60_000);
        awaitWaiting(permits, 2);

        now.addAndGet(200); // the first waiter's deadline is behind us when the permit frees
        permits.release();
        doomed.join(5_000);
        viable.join(5_000);
        assertEquals(List.of("doomed:none", "viable"), granted.stream().sorted().toList());
        assertEquals(1, permits.inUse());
        assertEquals(0, permits.waiting());
    }

    @Test
    void aWaitEndsAtTheDeadlineWithoutAPermitAndLeavesNoTrace() throws Exception {
        PermitQueue permits = new PermitQueue(1, DispatchOrder.EDF, System::currentTimeMillis);
        assertTrue(permits.acquire(System.currentTimeMillis() + 1_000));
        assertFalse(permits.acquire(System.currentTimeMillis() + 50));
        assertEquals(0, permits.waiting());
        permits.release();
        assertEquals(0, permits.inUse());
        assertTrue(permits.acquire(System.currentTimeMillis() + 50), "the permit is free again");
    }

    @Test
    void aPastDeadlineNeverWaits() throws Exception {
        PermitQueue permits = new PermitQueue(1, DispatchOrder.EDF, now::get);
        assertTrue(permits.acquire(now.get() + 1));
        assertFalse(permits.acquire(now.get()));
        assertEquals(0, permits.waiting());
    }
}

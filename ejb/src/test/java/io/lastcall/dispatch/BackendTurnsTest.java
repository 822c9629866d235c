package io.lastcall.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class BackendTurnsTest {

    private static final String BACKEND = "http://model|key";

    private final AtomicLong now = new AtomicLong(1_000_000);
    private final BackendTurns turns = new BackendTurns(now::get);
    private final List<String> order = new CopyOnWriteArrayList<>();

    /** A waiter that, given the turn, notes its name and passes the turn on with {@code closedUntil}. */
    private Thread waiter(String name, long lastDispatchAt, long opensAt, Long closedUntil) {
        Thread t = new Thread(() -> {
            try {
                if (turns.take(BACKEND, lastDispatchAt, opensAt)) {
                    order.add(name);
                    turns.pass(BACKEND, closedUntil);
                } else {
                    order.add(name + ":gone");
                }
            } catch (InterruptedException e) {
                order.add(name + ":interrupted");
            }
        });
        t.start();
        return t;
    }

    private void awaitWaiting(int n) throws InterruptedException {
        for (int i = 0; i < 500 && turns.waiting() != n; i++) {
            Thread.sleep(5);
        }
        assertEquals(n, turns.waiting());
    }

    @Test
    void whenTheBackendOpensTheEarliestDueGoFirstWhateverTheirArrival() throws Exception {
        long opensAt = now.get() + 50;
        Thread late = waiter("late", now.get() + 5_000, opensAt, null);
        awaitWaiting(1);
        Thread early = waiter("early", now.get() + 3_000, opensAt, null);
        awaitWaiting(2);
        Thread middle = waiter("middle", now.get() + 4_000, opensAt, null);
        awaitWaiting(3);
        assertTrue(turns.occupied(BACKEND));
        Thread.sleep(100);
        assertEquals(List.of(), order, "nobody goes before the backend opens");

        now.addAndGet(50);
        for (Thread t : List.of(late, early, middle)) {
            t.join(5_000);
        }
        assertEquals(List.of("early", "middle", "late"), order);
        assertFalse(turns.occupied(BACKEND), "an empty room is gone");
    }

    @Test
    void aHolderThatFindsTheBackendStillClosedHoldsBackEveryoneUntilItOpens() throws Exception {
        assertTrue(turns.take(BACKEND, now.get() + 10_000, now.get()));
        Thread next = waiter("next", now.get() + 10_000, now.get(), null);
        awaitWaiting(1);
        Thread.sleep(50);
        assertEquals(List.of(), order, "one turn at a time");

        turns.pass(BACKEND, now.get() + 100);
        Thread.sleep(200);
        assertEquals(List.of(), order, "closed until the instant the holder learnt");
        now.addAndGet(100);
        next.join(5_000);
        assertEquals(List.of("next"), order);
    }

    @Test
    void aWaiterWhoseLastDispatchableInstantComesBeforeItsTurnLeavesWithoutIt() throws Exception {
        assertTrue(turns.take(BACKEND, now.get() + 10_000, now.get()));
        Thread doomed = waiter("doomed", now.get() + 30, now.get(), null);
        awaitWaiting(1);
        now.addAndGet(30);
        doomed.join(5_000);
        assertEquals(List.of("doomed:gone"), order);
        assertEquals(0, turns.waiting());
        turns.pass(BACKEND, null);
        assertFalse(turns.occupied(BACKEND));
    }

    @Test
    void aWaiterTheBackendOpensTooLateForTakesTheNextTurnToBeEnded() throws Exception {
        long opensAt = now.get() + 1_000;
        Thread first = waiter("first", now.get() + 5_000, opensAt, null);
        awaitWaiting(1);
        Thread doomed = waiter("doomed", now.get() + 500, opensAt, null);
        doomed.join(5_000);
        assertEquals(List.of("doomed"), order, "it need not wait for the backend it cannot reach");
        assertEquals(1, turns.waiting());
        now.addAndGet(1_000);
        first.join(5_000);
        assertEquals(List.of("doomed", "first"), order);
    }

    @Test
    void backendsDoNotWaitForEachOther() throws Exception {
        assertTrue(turns.take(BACKEND, now.get() + 10_000, now.get()));
        assertTrue(turns.take("http://other|key", now.get() + 10_000, now.get()), "another backend's turn is free");
        turns.pass("http://other|key", null);
        turns.pass(BACKEND, null);
        assertFalse(turns.occupied(BACKEND));
    }
}

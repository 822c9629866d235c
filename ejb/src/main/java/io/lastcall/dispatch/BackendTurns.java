package io.lastcall.dispatch;

import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * The jobs on this server waiting for one backend (its pause, or its per-minute window to
 * refill), let through one at a time in deadline order: when the backend opens, the waiter with
 * the earliest last dispatchable instant takes the turn, gates, and passes the turn on, so the
 * capacity that comes back goes to the jobs that need it soonest rather than to whichever thread
 * wakes first. A waiter the backend opens too late for takes the next turn out of order (the
 * gate ends it with the backend's reason); one whose instant passes first leaves. Container-free.
 */
public final class BackendTurns {

    private record Waiter(long lastDispatchAt, long arrival) {
    }

    /** One backend's waiters, the one holding the turn, and when the backend opens again. */
    private final class Room {
        final PriorityQueue<Waiter> waiting = new PriorityQueue<>(
                Comparator.comparingLong(Waiter::lastDispatchAt).thenComparingLong(Waiter::arrival));
        final Condition changed = lock.newCondition();
        boolean turnTaken;
        long opensAt;

        boolean empty() {
            return waiting.isEmpty() && !turnTaken;
        }
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final Map<String, Room> rooms = new HashMap<>();
    private final LongSupplier clock;
    private long arrivals;

    public BackendTurns(LongSupplier clock) {
        this.clock = clock;
    }

    /**
     * Waits for this backend's turn: until it opens (at {@code opensAt}, or later if another
     * waiter learnt so) and every waiter due earlier has had its turn. True if the caller now
     * holds the turn and must {@link #pass} it; false if {@code lastDispatchAt} came first.
     */
    public boolean take(String backend, long lastDispatchAt, long opensAt) throws InterruptedException {
        lock.lock();
        try {
            Room room = rooms.computeIfAbsent(backend, k -> new Room());
            room.opensAt = Math.max(room.opensAt, opensAt);
            Waiter me = new Waiter(lastDispatchAt, arrivals++);
            room.waiting.add(me);
            try {
                while (true) {
                    long now = clock.getAsLong();
                    if (now >= lastDispatchAt) {
                        return false;
                    }
                    boolean first = room.waiting.peek() == me;
                    // the first once it opens; and at once one it opens too late for: its gate ends it
                    // with the backend's reason, rather than leaving at its instant without one
                    if (!room.turnTaken && (first && now >= room.opensAt || room.opensAt >= lastDispatchAt)) {
                        room.turnTaken = true;
                        return true;
                    }
                    long until = first && !room.turnTaken ? Math.min(room.opensAt, lastDispatchAt) : lastDispatchAt;
                    room.changed.await(until - now, TimeUnit.MILLISECONDS);
                }
            } finally {
                room.waiting.remove(me);
                room.changed.signalAll();
                if (room.empty()) {
                    rooms.remove(backend);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Gives the turn back after the gate: {@code closedUntil} is when the backend opens again if
     * the gate found it still paused or full (null if the holder got through or ended).
     */
    public void pass(String backend, Long closedUntil) {
        lock.lock();
        try {
            Room room = rooms.get(backend);
            if (room == null) {
                return;
            }
            room.turnTaken = false;
            if (closedUntil != null) {
                room.opensAt = Math.max(room.opensAt, closedUntil);
            }
            room.changed.signalAll();
            if (room.empty()) {
                rooms.remove(backend);
            }
        } finally {
            lock.unlock();
        }
    }

    /** True if jobs on this server wait for this backend (a new one should queue behind them). */
    public boolean occupied(String backend) {
        lock.lock();
        try {
            return rooms.containsKey(backend);
        } finally {
            lock.unlock();
        }
    }

    /** Jobs waiting for any backend right now (not counting ones holding a turn). */
    public int waiting() {
        lock.lock();
        try {
            return rooms.values().stream().mapToInt(r -> r.waiting.size()).sum();
        } finally {
            lock.unlock();
        }
    }
}

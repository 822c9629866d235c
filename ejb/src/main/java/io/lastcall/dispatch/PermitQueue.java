package io.lastcall.dispatch;

import io.lastcall.policy.DispatchOrder;
import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * A fixed number of permits, granted to waiters earliest-deadline-first (or first come, first
 * served, for comparison) across every consumer of the server. A waiter gives its last useful
 * instant; a permit set free goes to the waiter whose instant is earliest and not yet past, so a
 * job that can no longer be dispatched never takes a permit from one that can. Container-free.
 */
public final class PermitQueue {

    private static final class Waiter {
        final long deadlineAt;
        final long arrival;
        final Condition granted;
        boolean holds;
        boolean gone;

        Waiter(long deadlineAt, long arrival, Condition granted) {
            this.deadlineAt = deadlineAt;
            this.arrival = arrival;
            this.granted = granted;
        }
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final PriorityQueue<Waiter> waiters;
    private final LongSupplier clock;
    private final int size;
    private int free;
    private long arrivals;

    public PermitQueue(int size, DispatchOrder order, LongSupplier clock) {
        this.size = size;
        this.free = size;
        this.clock = clock;
        Comparator<Waiter> byArrival = Comparator.comparingLong(w -> w.arrival);
        this.waiters = new PriorityQueue<>(order == DispatchOrder.EDF
                ? Comparator.<Waiter>comparingLong(w -> w.deadlineAt).thenComparing(byArrival) : byArrival);
    }

    /**
     * Takes a permit, waiting at most until {@code deadlineAt} (epoch ms, the job's last
     * dispatchable instant); true if the caller now holds one.
     */
    public boolean acquire(long deadlineAt) throws InterruptedException {
        lock.lock();
        try {
            if (free > 0 && waiters.isEmpty()) {
                free--;
                return true;
            }
            if (deadlineAt <= clock.getAsLong()) {
                return false;
            }
            Waiter me = new Waiter(deadlineAt, arrivals++, lock.newCondition());
            waiters.add(me);
            grantFree();
            try {
                while (!me.holds && !me.gone) {
                    long left = deadlineAt - clock.getAsLong();
                    if (left <= 0) {
                        break;
                    }
                    me.granted.await(left, TimeUnit.MILLISECONDS);
                }
            } catch (InterruptedException e) {
                leave(me);
                throw e;
            }
            if (!me.holds) {
                leave(me);
            }
            return me.holds;
        } finally {
            lock.unlock();
        }
    }

    /** A permit if one is free and nobody waits for one (never ahead of a waiter); never blocks. */
    public boolean tryAcquire() {
        lock.lock();
        try {
            if (free > 0 && waiters.isEmpty()) {
                free--;
                return true;
            }
            return false;
        } finally {
            lock.unlock();
        }
    }

    public void release() {
        lock.lock();
        try {
            free++;
            grantFree();
        } finally {
            lock.unlock();
        }
    }

    public int size() {
        return size;
    }

    public int inUse() {
        lock.lock();
        try {
            return size - free;
        } finally {
            lock.unlock();
        }
    }

    /** Waiters that can still be granted a permit. */
    public int waiting() {
        lock.lock();
        try {
            return waiters.size();
        } finally {
            lock.unlock();
        }
    }

    /** Hands free permits to the earliest waiters that can still use them; past ones leave. */
    private void grantFree() {
        long now = clock.getAsLong();
        while (free > 0 && !waiters.isEmpty()) {
            Waiter next = waiters.poll();
            if (next.deadlineAt <= now) {
                next.gone = true;
                next.granted.signal();
                continue;
            }
            free--;
            next.holds = true;
            next.granted.signal();
        }
    }

    /** A waiter that stops waiting without a permit (timed out, interrupted, or passed over). */
    private void leave(Waiter me) {
        if (me.holds) {
            // granted in the same instant it gave up: hand the permit on
            me.holds = false;
            free++;
            grantFree();
        } else if (!me.gone) {
            waiters.remove(me);
        }
    }
}

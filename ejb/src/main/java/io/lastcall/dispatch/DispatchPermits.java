package io.lastcall.dispatch;

import io.lastcall.policy.Settings;
import jakarta.annotation.PostConstruct;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.inject.Inject;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The bounded number of concurrent model calls ({@code lastcall.dispatch.permits}, fixed at
 * startup). A wait for a permit is bounded by the caller (by the job's remaining lifetime).
 */
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class DispatchPermits {

    @Inject
    Settings settings;

    private Semaphore permits;
    private int size;
    private final AtomicInteger waiting = new AtomicInteger();

    @PostConstruct
    void init() {
        size = settings.dispatchPermits();
        permits = new Semaphore(size, true);
    }

    /** Waits at most {@code timeoutMs}; true if a permit is now held (the caller notes when: that is permit_at). */
    public boolean acquire(long timeoutMs) throws InterruptedException {
        if (permits.tryAcquire()) {
            return true;
        }
        if (timeoutMs <= 0) {
            return false;
        }
        waiting.incrementAndGet();
        try {
            return permits.tryAcquire(timeoutMs, TimeUnit.MILLISECONDS);
        } finally {
            waiting.decrementAndGet();
        }
    }

    public void release() {
        permits.release();
    }

    public int size() {
        return size;
    }

    public int inUse() {
        return size - permits.availablePermits();
    }

    /** Jobs waiting locally for a permit right now. */
    public int waiting() {
        return waiting.get();
    }
}

package io.lastcall.dispatch;

import io.lastcall.policy.Settings;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;

/**
 * The bounded number of concurrent model calls on this server ({@code lastcall.dispatch.permits},
 * fixed at startup), granted earliest-deadline-first across all consumers
 * ({@code lastcall.dispatch.order}: {@code edf}, or {@code fifo} for comparison). A wait lasts
 * at most until the job's last dispatchable instant. No transaction: a wait may outlast the
 * server's transaction timeout (WildFly's default is 300 s), and a permit granted inside a
 * transaction that then fails to commit would never be released. A CDI bean, not an EJB: every
 * dispatch asks it twice, and it needs nothing of the EJB container (docs/performance.md).
 */
@ApplicationScoped
public class DispatchPermits {

    @Inject
    Settings settings;

    @Inject
    Clock clock;

    private PermitQueue permits;

    @PostConstruct
    void init() {
        permits = new PermitQueue(settings.dispatch().permits(), settings.dispatch().order(), clock::millis);
    }

    /**
     * Waits until a permit is granted or {@code deadlineAt} (epoch ms) passes; true if a permit is
     * now held (the caller notes when: that is permit_at).
     */
    public boolean acquire(long deadlineAt) throws InterruptedException {
        return permits.acquire(deadlineAt);
    }

    /** A permit at once if one is free and nobody is waiting; never blocks. */
    public boolean tryAcquire() {
        return permits.tryAcquire();
    }

    public void release() {
        permits.release();
    }

    public int size() {
        return permits.size();
    }

    public int inUse() {
        return permits.inUse();
    }

    /** Jobs waiting locally for a permit right now. */
    public int waiting() {
        return permits.waiting();
    }
}

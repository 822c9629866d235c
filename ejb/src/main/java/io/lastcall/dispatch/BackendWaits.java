package io.lastcall.dispatch;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;

/**
 * This server's jobs waiting for a paused or rate-limited backend, let through in deadline order
 * ({@link BackendTurns}). No transaction, for the reason {@link DispatchPermits} gives: a wait may
 * outlast the transaction timeout. A CDI bean like {@link DispatchPermits}, for the same reason.
 */
@ApplicationScoped
public class BackendWaits {

    @Inject
    Clock clock;

    private BackendTurns turns;

    @PostConstruct
    void init() {
        turns = new BackendTurns(clock::millis);
    }

    /** See {@link BackendTurns#take}. */
    public boolean take(String backend, long lastDispatchAt, long opensAt) throws InterruptedException {
        return turns.take(backend, lastDispatchAt, opensAt);
    }

    /** See {@link BackendTurns#pass}. */
    public void pass(String backend, Long closedUntil) {
        turns.pass(backend, closedUntil);
    }

    public boolean occupied(String backend) {
        return turns.occupied(backend);
    }

    /** Jobs waiting locally for a backend to open right now. */
    public int waiting() {
        return turns.waiting();
    }
}

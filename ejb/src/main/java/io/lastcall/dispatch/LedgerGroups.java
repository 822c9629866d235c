package io.lastcall.dispatch;

import io.lastcall.group.GroupCommit;
import io.lastcall.metrics.LastcallMetrics;
import io.lastcall.policy.Settings;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;

/**
 * Group commit on the worker path ({@link GroupCommit}): deliveries that hold a permit have their
 * receipt and gate, connected calls their handoff, and call threads their finished calls'
 * settlements, recorded by one thread each, all that are waiting (up to
 * {@code lastcall.dispatch.group-max}) in one transaction ({@link DispatchLedger#receiveAndGateAll},
 * {@link DispatchLedger#handOffAll}, {@link DispatchLedger#settleAll}) — one commit, one
 * connection and one JTA round instead of one each. Each caller waits for its own commit: an MDB
 * invocation is still acknowledged only for its own message, a handoff's caller writes its own
 * request right after the commit, a call thread keeps its permit until its settlement is
 * recorded and publishes its own retry. A group that fails whole (a
 * deadlock, the database gone) leaves each item to its caller, which records it alone as it
 * always did. A crash with a group in flight is a crash before those receipts, or during those
 * calls: redelivery, or the reconciler's OUTCOME_UNKNOWN. A CDI bean, not an EJB: each dispatch
 * calls it three times, and only the group's own transaction needs the EJB container
 * ({@link DispatchLedger}).
 */
@ApplicationScoped
public class LedgerGroups {

    @Resource
    ManagedThreadFactory threads;

    @EJB
    DispatchLedger ledger;

    @Inject
    Settings settings;

    @Inject
    LastcallMetrics metrics;

    private GroupCommit<DispatchLedger.Delivery, DispatchLedger.Admission> admissions;
    private GroupCommit<DispatchLedger.Settlement, Long> settlements;
    private GroupCommit<DispatchLedger.Handoff, DispatchLedger.Authorization> handoffs;

    @PostConstruct
    void start() {
        int max = settings.dispatch().groupMax();
        if (max > 1) {
            // each waiting caller holds a permit: never more in a queue than there are permits
            int permits = settings.dispatch().permits();
            admissions = new GroupCommit<>("receipt-and-gate", max, permits, 1, ledger::receiveAndGateAll,
                    size -> metrics.groupCommitted("receipt-and-gate", size), threads);
            settlements = new GroupCommit<>("settlement", max, permits, 1, ledger::settleAll,
                    size -> metrics.groupCommitted("settlement", size), threads);
            handoffs = new GroupCommit<>("handoff", max, permits, 1, ledger::handOffAll,
                    size -> metrics.groupCommitted("handoff", size), threads);
        }
    }

    /** The delivery's receipt and gate once its group committed; empty if the caller must record them itself. */
    public Optional<DispatchLedger.Admission> admit(DispatchLedger.Delivery delivery) {
        return admissions == null ? Optional.empty() : admissions.submit(delivery);
    }

    /** The settlement's retry tier (ms, 0 for none) once its group committed; empty if the caller must record it itself. */
    public Optional<Long> settle(DispatchLedger.Settlement settlement) {
        return settlements == null ? Optional.empty() : settlements.submit(settlement);
    }

    /**
     * The handoff's last check and HANDED_OFF commit, once its group committed; empty if the caller
     * must make it alone. Only that commit lies between the check and the caller's write.
     */
    public Optional<DispatchLedger.Authorization> handOff(DispatchLedger.Handoff handoff) {
        return handoffs == null ? Optional.empty() : handoffs.submit(handoff);
    }

    @PreDestroy
    void stop() {
        if (admissions != null) {
            admissions.stop();
            settlements.stop();
            handoffs.stop();
        }
    }
}

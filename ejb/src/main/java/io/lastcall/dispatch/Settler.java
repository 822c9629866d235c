package io.lastcall.dispatch;

import io.lastcall.policy.Settings;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.EJB;
import jakarta.ejb.Singleton;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.inject.Inject;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Settlement in groups: call threads hand their finished calls here and one thread records all
 * that are waiting, up to {@code lastcall.dispatch.settle-group-max}, in one transaction
 * ({@link DispatchLedger#settleAll}) — one commit, one connection and one JTA round instead of
 * one each. A call thread waits for its own settlement's commit, keeps its permit until then, and
 * publishes its own retry; a group that fails whole (a deadlock, the database gone) leaves each
 * settlement to its call thread, which records it alone with the retries it always had. A crash
 * with a group in flight is a crash during those calls: the reconciler ends them OUTCOME_UNKNOWN.
 */
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class Settler {

    @Resource
    ManagedThreadFactory threads;

    @EJB
    DispatchLedger ledger;

    @Inject
    Settings settings;

    private GroupCommit<DispatchLedger.Settlement, Long> groups;

    @PostConstruct
    void start() {
        int max = settings.dispatch().settleGroupMax();
        if (max > 1) {
            // a call thread holds a permit while it waits: never more settlements than permits
            groups = new GroupCommit<>("settlement", max, settings.dispatch().permits(), ledger::settleAll, threads);
        }
    }

    /** The settlement's retry tier (ms, 0 for none) once its group committed; empty if the caller must record it itself. */
    public OptionalLong settle(DispatchLedger.Settlement settlement) {
        Optional<Long> tier = groups == null ? Optional.empty() : groups.submit(settlement);
        return tier.map(OptionalLong::of).orElseGet(OptionalLong::empty);
    }

    @PreDestroy
    void stop() {
        if (groups != null) {
            groups.stop();
        }
    }
}

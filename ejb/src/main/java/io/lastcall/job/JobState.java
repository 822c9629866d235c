package io.lastcall.job;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The job state machine, the only place that says which transition is allowed.
 * {@code ACCEPTED -> QUEUED -> DELIVERED -> WAITING_PERMIT -> CLAIMED -> HANDED_OFF -> terminal}.
 * A delivery can overtake the publisher's confirm, so the pre-claim states may be skipped.
 */
public enum JobState {
    ACCEPTED, QUEUED, DELIVERED, WAITING_PERMIT, CLAIMED, HANDED_OFF,
    COMPLETED, EXECUTION_FAILED, OUTCOME_UNKNOWN, EXPIRED_NOT_STARTED, CANCELED, SUPERSEDED, BUDGET_DENIED,
    QUARANTINED;

    private static final Set<JobState> PRE_CLAIM = EnumSet.of(ACCEPTED, QUEUED, DELIVERED, WAITING_PERMIT);
    private static final Set<JobState> TERMINAL = EnumSet.of(COMPLETED, EXECUTION_FAILED, OUTCOME_UNKNOWN,
            EXPIRED_NOT_STARTED, CANCELED, SUPERSEDED, BUDGET_DENIED, QUARANTINED);
    private static final Set<JobState> ENDS_BEFORE_DISPATCH = EnumSet.of(EXPIRED_NOT_STARTED, CANCELED, SUPERSEDED,
            BUDGET_DENIED, QUARANTINED);

    private static final Map<JobState, Set<JobState>> NEXT = Map.ofEntries(
            Map.entry(ACCEPTED, union(EnumSet.of(QUEUED, DELIVERED, WAITING_PERMIT), ENDS_BEFORE_DISPATCH)),
            Map.entry(QUEUED, union(EnumSet.of(DELIVERED, WAITING_PERMIT), ENDS_BEFORE_DISPATCH)),
            Map.entry(DELIVERED, union(EnumSet.of(DELIVERED, WAITING_PERMIT, CLAIMED), ENDS_BEFORE_DISPATCH)),
            Map.entry(WAITING_PERMIT, union(EnumSet.of(DELIVERED, WAITING_PERMIT, CLAIMED), ENDS_BEFORE_DISPATCH)),
            // a claim that never reached the wire can still expire, or be re-admitted (reconciler)
            // (and a request never written because the connect failed: retried, or out of attempts)
            Map.entry(CLAIMED, EnumSet.of(HANDED_OFF, EXPIRED_NOT_STARTED, QUEUED, EXECUTION_FAILED)),
            // back to QUEUED only for a retry of a failure proven not to have run remotely;
            // EXPIRED_NOT_STARTED when the request was never written (authorization lapsed, no tier fits)
            Map.entry(HANDED_OFF, EnumSet.of(COMPLETED, EXECUTION_FAILED, OUTCOME_UNKNOWN, QUEUED,
                    EXPIRED_NOT_STARTED)));

    /** Every outcome. */
    public static Set<JobState> terminalStates() {
        return EnumSet.copyOf(TERMINAL);
    }

    /** Not yet claimed. */
    public static Set<JobState> preClaimStates() {
        return EnumSet.copyOf(PRE_CLAIM);
    }

    /** The states that are not an outcome yet. */
    public static Set<JobState> open() {
        return EnumSet.complementOf(EnumSet.copyOf(TERMINAL));
    }

    public boolean isTerminal() {
        return TERMINAL.contains(this);
    }

    /** Not yet claimed: the final gate may still refuse or claim it. */
    public boolean isPreClaim() {
        return PRE_CLAIM.contains(this);
    }

    public boolean canMoveTo(JobState next) {
        return NEXT.getOrDefault(this, Set.of()).contains(next);
    }

    /** @throws IllegalStateException naming both states when the machine forbids the move */
    public JobState moveTo(JobState next) {
        if (!canMoveTo(next)) {
            throw new IllegalStateException("job state " + this + " cannot move to " + next);
        }
        return next;
    }

    private static Set<JobState> union(Set<JobState> a, Set<JobState> b) {
        EnumSet<JobState> all = EnumSet.copyOf(a);
        all.addAll(b);
        return all;
    }
}

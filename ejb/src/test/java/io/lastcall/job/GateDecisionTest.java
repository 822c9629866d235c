package io.lastcall.job;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class GateDecisionTest {

    @Test
    void expiryComesFirst() {
        assertEquals(GateDecision.EXPIRE, GateDecision.decide(JobState.WAITING_PERMIT, 0, true, true, false, false));
    }

    @Test
    void thenCancelThenSupersede() {
        assertEquals(GateDecision.CANCEL, GateDecision.decide(JobState.WAITING_PERMIT, 10, true, true, true, true));
        assertEquals(GateDecision.SUPERSEDE, GateDecision.decide(JobState.WAITING_PERMIT, 10, false, true, true, true));
    }

    @Test
    void budgetThenClaim() {
        assertEquals(GateDecision.DENY_BUDGET, GateDecision.decide(JobState.QUEUED, 10, false, false, false, true));
        assertEquals(GateDecision.CLAIM, GateDecision.decide(JobState.QUEUED, 10, false, false, true, true));
    }

    @Test
    void noClaimWithoutAPermit() {
        assertEquals(GateDecision.NO_PERMIT, GateDecision.decide(JobState.WAITING_PERMIT, 10, false, false, true, false));
    }

    @Test
    void aClaimedJobIsNeverClaimedAgain() {
        for (JobState s : new JobState[] {JobState.CLAIMED, JobState.HANDED_OFF, JobState.COMPLETED,
                JobState.EXPIRED_NOT_STARTED}) {
            assertEquals(GateDecision.NOT_CLAIMABLE, GateDecision.decide(s, 10_000, false, false, true, true));
        }
    }
}

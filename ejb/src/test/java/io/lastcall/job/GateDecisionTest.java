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

    @Test
    void aPausedBackendHoldsTheClaimBackOrEndsIt() {
        long now = 1_000_000;
        assertEquals(GateDecision.CLAIM, GateDecision.CLAIM.givenPause(0, now, now + 60_000), "never paused");
        assertEquals(GateDecision.CLAIM, GateDecision.CLAIM.givenPause(now, now, now + 60_000), "the pause is over");
        assertEquals(GateDecision.WAIT_FOR_BACKEND, GateDecision.CLAIM.givenPause(now + 5_000, now, now + 60_000));
        assertEquals(GateDecision.EXPIRE_BACKEND_PAUSED, GateDecision.CLAIM.givenPause(now + 60_000, now, now + 60_000),
                "the pause reaches the last dispatch instant");
        assertEquals(GateDecision.CANCEL, GateDecision.CANCEL.givenPause(now + 5_000, now, now + 60_000),
                "only a claim waits");
    }

    @Test
    void fullRateLimitsHoldTheClaimBackOrEndIt() {
        long now = 1_000_000;
        assertEquals(GateDecision.CLAIM, GateDecision.CLAIM.givenRateLimit(0, now, now + 60_000), "room now");
        assertEquals(GateDecision.WAIT_FOR_BACKEND, GateDecision.CLAIM.givenRateLimit(now + 100, now, now + 60_000));
        assertEquals(GateDecision.EXPIRE_RATE_LIMITED, GateDecision.CLAIM.givenRateLimit(now + 60_000, now, now + 60_000),
                "no room before the last dispatch instant");
        assertEquals(GateDecision.DENY_BUDGET, GateDecision.DENY_BUDGET.givenRateLimit(now + 100, now, now + 60_000),
                "only a claim waits");
    }

    @Test
    void anExpiryAfterWaitingForTheBackendCarriesTheBackendsReason() {
        assertEquals(GateDecision.EXPIRE_BACKEND_PAUSED, GateDecision.EXPIRE.givenWaitedForBackend(true, true),
                "a pause that outlasted the job first");
        assertEquals(GateDecision.EXPIRE_RATE_LIMITED, GateDecision.EXPIRE.givenWaitedForBackend(false, true),
                "room that did not come in time");
        assertEquals(GateDecision.EXPIRE, GateDecision.EXPIRE.givenWaitedForBackend(false, false),
                "neither: before dispatch");
        for (GateDecision other : new GateDecision[] {GateDecision.CANCEL, GateDecision.SUPERSEDE,
                GateDecision.NOT_CLAIMABLE, GateDecision.NO_PERMIT, GateDecision.CLAIM}) {
            assertEquals(other, other.givenWaitedForBackend(true, true), "only an expiry takes the backend's reason");
        }
    }

    @Test
    void aForecastRefusesOnlyAClaimAndOnlyWhenAdmissionIsOn() {
        assertEquals(GateDecision.EXPIRE_PREDICTED_LATE, GateDecision.CLAIM.givenForecast(true, true));
        assertEquals(GateDecision.CLAIM, GateDecision.CLAIM.givenForecast(true, false), "shadow: recorded, not refused");
        assertEquals(GateDecision.CLAIM, GateDecision.CLAIM.givenForecast(false, true), "on time");
        assertEquals(GateDecision.WAIT_FOR_BACKEND, GateDecision.WAIT_FOR_BACKEND.givenForecast(true, true));
    }
}

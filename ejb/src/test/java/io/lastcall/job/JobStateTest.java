package io.lastcall.job;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import org.junit.jupiter.api.Test;

class JobStateTest {

    @Test
    void theHappyPath() {
        JobState s = JobState.ACCEPTED;
        for (JobState next : new JobState[] {JobState.QUEUED, JobState.DELIVERED, JobState.WAITING_PERMIT,
                JobState.CLAIMED, JobState.HANDED_OFF, JobState.COMPLETED}) {
            s = s.moveTo(next);
        }
        assertTrue(s.isTerminal());
    }

    @Test
    void terminalStatesNeverMove() {
        for (JobState terminal : JobState.values()) {
            if (!terminal.isTerminal()) {
                continue;
            }
            for (JobState next : JobState.values()) {
                assertFalse(terminal.canMoveTo(next), terminal + " -> " + next);
            }
        }
    }

    @Test
    void handedOffEndsInAnExecutionOutcomeOrGoesBackForARetry() {
        EnumSet<JobState> allowed = EnumSet.noneOf(JobState.class);
        for (JobState next : JobState.values()) {
            if (JobState.HANDED_OFF.canMoveTo(next)) {
                allowed.add(next);
            }
        }
        assertTrue(allowed.equals(EnumSet.of(JobState.COMPLETED, JobState.EXECUTION_FAILED, JobState.OUTCOME_UNKNOWN,
                JobState.QUEUED, JobState.EXPIRED_NOT_STARTED)), allowed.toString());
        assertThrows(IllegalStateException.class, () -> JobState.HANDED_OFF.moveTo(JobState.CANCELED));
        assertThrows(IllegalStateException.class, () -> JobState.HANDED_OFF.moveTo(JobState.CLAIMED));
    }

    @Test
    void onlyPreClaimStatesReachAClaimAndDeliveryMayOvertakeTheConfirm() {
        assertTrue(JobState.ACCEPTED.canMoveTo(JobState.WAITING_PERMIT));
        assertTrue(JobState.WAITING_PERMIT.canMoveTo(JobState.CLAIMED));
        assertFalse(JobState.CLAIMED.canMoveTo(JobState.CLAIMED), "a claim is never granted twice");
        assertFalse(JobState.ACCEPTED.canMoveTo(JobState.HANDED_OFF));
        assertFalse(JobState.CLAIMED.canMoveTo(JobState.COMPLETED));
    }
}

package io.lastcall.reconcile;

import io.lastcall.job.Attempt;
import io.lastcall.job.Job;
import io.lastcall.job.Outcome;

/** Releasing a claim that never reached its handoff: the attempt is revoked, the job re-admitted or expired. */
final class ClaimRelease {

    private ClaimRelease() {
    }

    /** @return true when the job was re-admitted (the caller publishes it after the commit) */
    static boolean release(Job job, Attempt attempt, long now, long clockUncertaintyMs, String why) {
        attempt.revoke(now, why);
        if (job.remainingForDispatch(now, clockUncertaintyMs) > 0) {
            job.requeue(now);
            return true;
        }
        job.end(Outcome.EXPIRED_RECONCILED, now);
        return false;
    }
}

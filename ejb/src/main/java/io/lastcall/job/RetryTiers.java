package io.lastcall.job;

import java.util.List;

/**
 * Which retry delay tier a transient failure goes through (docs/design.md §4): attempt n prefers the n-th
 * tier (the last one after that), and falls back to the longest shorter tier that still ends
 * before the job's remaining lifetime does. Pure.
 */
public final class RetryTiers {

    /** {@code tierMs} is set only for {@link Kind#RETRY}. */
    public record Choice(Kind kind, long tierMs) {
    }

    public enum Kind { RETRY, ATTEMPTS_EXHAUSTED, NO_TIER_FITS }

    private RetryTiers() {
    }

    /**
     * @param tiersMs      delays, shortest first
     * @param attemptsMade attempts so far, including the one that just failed (≥ 1)
     * @param remainingMs  the job's remaining dispatch lifetime now
     */
    public static Choice choose(List<Long> tiersMs, int attemptsMade, int maxAttempts, long remainingMs) {
        if (attemptsMade >= maxAttempts) {
            return new Choice(Kind.ATTEMPTS_EXHAUSTED, 0);
        }
        int preferred = Math.min(attemptsMade, tiersMs.size()) - 1;
        for (int i = preferred; i >= 0; i--) {
            if (tiersMs.get(i) < remainingMs) {
                return new Choice(Kind.RETRY, tiersMs.get(i));
            }
        }
        return new Choice(Kind.NO_TIER_FITS, 0);
    }
}

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
     * @param attemptsMade attempts that count so far, including the one that just failed
     * @param remainingMs  the job's remaining dispatch lifetime now
     */
    public static Choice choose(List<Long> tiersMs, int attemptsMade, int maxAttempts, long remainingMs) {
        return choose(tiersMs, attemptsMade, maxAttempts, remainingMs, 0);
    }

    /**
     * The same, when the backend asked not to be called for {@code notBeforeMs}: the shortest tier
     * that ends after that and before the lifetime does, so the job returns when the pause ends;
     * failing that, the usual choice (the gate then waits out the rest of the pause).
     */
    public static Choice choose(List<Long> tiersMs, int attemptsMade, int maxAttempts, long remainingMs,
            long notBeforeMs) {
        if (attemptsMade >= maxAttempts) {
            return new Choice(Kind.ATTEMPTS_EXHAUSTED, 0);
        }
        if (notBeforeMs > 0) {
            for (long tier : tiersMs) {
                if (tier >= notBeforeMs && tier < remainingMs) {
                    return new Choice(Kind.RETRY, tier);
                }
            }
        }
        int preferred = Math.min(Math.max(1, attemptsMade), tiersMs.size()) - 1;
        for (int i = preferred; i >= 0; i--) {
            if (tiersMs.get(i) < remainingMs) {
                return new Choice(Kind.RETRY, tiersMs.get(i));
            }
        }
        return new Choice(Kind.NO_TIER_FITS, 0);
    }
}

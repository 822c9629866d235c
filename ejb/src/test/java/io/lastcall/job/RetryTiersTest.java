package io.lastcall.job;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lastcall.job.RetryTiers.Choice;
import io.lastcall.job.RetryTiers.Kind;
import java.util.List;
import org.junit.jupiter.api.Test;

class RetryTiersTest {

    private static final List<Long> TIERS = List.of(1_000L, 10_000L, 60_000L);

    @Test
    void attemptNPrefersTheNthTier() {
        assertEquals(new Choice(Kind.RETRY, 1_000), RetryTiers.choose(TIERS, 1, 5, 120_000));
        assertEquals(new Choice(Kind.RETRY, 10_000), RetryTiers.choose(TIERS, 2, 5, 120_000));
        assertEquals(new Choice(Kind.RETRY, 60_000), RetryTiers.choose(TIERS, 3, 5, 120_000));
        assertEquals(new Choice(Kind.RETRY, 60_000), RetryTiers.choose(TIERS, 4, 5, 120_000), "stays on the last");
    }

    @Test
    void fallsBackToAShorterTierThatFits() {
        assertEquals(new Choice(Kind.RETRY, 1_000), RetryTiers.choose(TIERS, 2, 5, 5_000));
        assertEquals(new Choice(Kind.RETRY, 10_000), RetryTiers.choose(TIERS, 3, 5, 10_001));
    }

    @Test
    void noTierFitsTheRemainingLifetime() {
        assertEquals(Kind.NO_TIER_FITS, RetryTiers.choose(TIERS, 1, 5, 1_000).kind(), "a tier must end before the deadline");
        assertEquals(Kind.NO_TIER_FITS, RetryTiers.choose(TIERS, 1, 5, 0).kind());
    }

    @Test
    void attemptsAreBounded() {
        assertEquals(Kind.ATTEMPTS_EXHAUSTED, RetryTiers.choose(TIERS, 3, 3, 120_000).kind());
        assertEquals(Kind.ATTEMPTS_EXHAUSTED, RetryTiers.choose(TIERS, 1, 1, 120_000).kind());
    }

    @Test
    void afterAPauseTheShortestTierThatOutlastsIt() {
        assertEquals(new Choice(Kind.RETRY, 10_000), RetryTiers.choose(TIERS, 1, 5, 120_000, 5_000),
                "the 1 s tier would return during the pause");
        assertEquals(new Choice(Kind.RETRY, 60_000), RetryTiers.choose(TIERS, 1, 5, 120_000, 10_001));
        // none outlasts it within the lifetime: the usual choice, and the gate waits out the rest
        assertEquals(new Choice(Kind.RETRY, 10_000), RetryTiers.choose(TIERS, 2, 5, 30_000, 20_000));
    }

    @Test
    void refusalsThatPausedTheBackendDoNotCount() {
        // every attempt so far was paced by the provider: 0 counted, still a retry with max-attempts 1
        assertEquals(new Choice(Kind.RETRY, 10_000), RetryTiers.choose(TIERS, 0, 1, 120_000, 5_000));
        assertEquals(new Choice(Kind.RETRY, 1_000), RetryTiers.choose(TIERS, 0, 1, 120_000, 0));
    }
}

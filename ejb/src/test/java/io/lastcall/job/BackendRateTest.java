package io.lastcall.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class BackendRateTest {

    private static final long T0 = 1_800_000_000_000L;

    @Test
    void aNewBackendHasItsWholeMinuteThenWaitsForTheRefill() {
        BackendRate rate = new BackendRate("b", T0, 60, 0);
        for (int i = 0; i < 60; i++) {
            assertEquals(0, rate.take(T0, 100, 60, 0), "request " + i + " of the first minute");
        }
        assertEquals(T0 + 1_000, rate.take(T0, 100, 60, 0), "one request a second refills");
        assertEquals(T0 + 1_000, rate.take(T0 + 500, 100, 60, 0), "still waiting half-way");
        assertEquals(0, rate.take(T0 + 1_000, 100, 60, 0), "taken once refilled");
    }

    @Test
    void tokensWaitForWhatTheJobNeeds() {
        BackendRate rate = new BackendRate("b", T0, 0, 6_000);
        assertEquals(0, rate.take(T0, 5_000, 0, 6_000));
        // 1,000 left, 2,000 needed: 1,000 more at 100 a second
        assertEquals(T0 + 10_000, rate.take(T0, 2_000, 0, 6_000));
        assertEquals(0, rate.take(T0 + 10_000, 2_000, 0, 6_000));
    }

    @Test
    void aJobLargerThanAMinuteOfTokensGoesWhenTheMinuteIsFull() {
        BackendRate rate = new BackendRate("b", T0, 0, 1_000);
        assertEquals(0, rate.take(T0, 50_000, 0, 1_000));
        assertEquals(T0 + 60_000, rate.take(T0, 50_000, 0, 1_000));
    }

    @Test
    void theProvidersCountOnlyLowersOurs() {
        BackendRate rate = new BackendRate("b", T0, 60, 0);
        rate.correct(T0, 0L, null, 60, 0);
        assertEquals(T0 + 1_000, rate.take(T0, 0, 60, 0), "the provider says none are left");
        rate.correct(T0 + 30_000, 59L, null, 60, 0);
        assertEquals(30.0, rate.getRequestsLeft(), 1e-9, "59 reported, 30 refilled: 30 stand");
    }

    @Test
    void readingWhatIsLeftTakesNothing() {
        BackendRate rate = new BackendRate("b", T0, 60, 6_000);
        rate.take(T0, 3_000, 60, 6_000);
        double[] left = rate.leftAt(T0 + 10_000, 60, 6_000);
        assertEquals(60.0, left[0], 1e-9, "59 + 10 refilled, capped at the minute's 60");
        assertEquals(4_000.0, left[1], 1e-9, "3,000 + 1,000 refilled");
        assertEquals(59.0, rate.getRequestsLeft(), 1e-9, "the row itself is unchanged");
    }

    @Test
    void aClockBehindTheLastRefillAddsNothing() {
        BackendRate rate = new BackendRate("b", T0, 60, 0);
        for (int i = 0; i < 60; i++) {
            rate.take(T0, 0, 60, 0);
        }
        assertTrue(rate.take(T0 - 5_000, 0, 60, 0) > T0 - 5_000);
        assertEquals(0.0, rate.getRequestsLeft(), 1e-9);
    }

    /**
     * Whatever the arrivals, no 60 s window sees more than two minutes' worth of requests or tokens
     * (the full bucket plus one minute's refill): what a provider counting the same way accepts.
     */
    @Property(tries = 200)
    void noMinuteGetsMoreThanTheLimitAllows(@ForAll @Size(min = 1, max = 400) List<@IntRange(min = 0, max = 2_000) Integer> gaps,
            @ForAll @IntRange(min = 1, max = 600) int rpm, @ForAll @IntRange(min = 0, max = 5_000) int tokens) {
        long tpm = 60_000;
        BackendRate rate = new BackendRate("b", T0, rpm, tpm);
        List<long[]> granted = new ArrayList<>();
        long now = T0;
        for (int gap : gaps) {
            now += gap;
            long readyAt = rate.take(now, tokens, rpm, tpm);
            if (readyAt == 0) {
                granted.add(new long[] {now, tokens});
            } else {
                assertTrue(readyAt > now, "a wait lies ahead");
            }
        }
        for (long[] first : granted) {
            long requests = granted.stream().filter(g -> g[0] >= first[0] && g[0] < first[0] + 60_000).count();
            long used = granted.stream().filter(g -> g[0] >= first[0] && g[0] < first[0] + 60_000)
                    .mapToLong(g -> g[1]).sum();
            assertTrue(requests <= 2L * rpm, requests + " requests in a minute at " + rpm + "/min");
            assertTrue(used <= 2L * tpm, used + " tokens in a minute at " + tpm + "/min");
        }
    }

    /** A job told to wait until an instant gets its turn then, if nobody took from the backend meanwhile. */
    @Property(tries = 200)
    void theAnnouncedInstantIsEnough(@ForAll @IntRange(min = 1, max = 600) int rpm,
            @ForAll @IntRange(min = 1, max = 100_000) int tpm, @ForAll @IntRange(min = 0, max = 200_000) int tokens,
            @ForAll @IntRange(min = 0, max = 50) int before) {
        BackendRate rate = new BackendRate("b", T0, rpm, tpm);
        for (int i = 0; i < before; i++) {
            rate.take(T0, tokens, rpm, tpm);
        }
        long readyAt = rate.take(T0, tokens, rpm, tpm);
        if (readyAt != 0) {
            assertEquals(0, rate.take(readyAt, tokens, rpm, tpm));
        }
    }
}

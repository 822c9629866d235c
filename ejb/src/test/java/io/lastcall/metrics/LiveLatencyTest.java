package io.lastcall.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class LiveLatencyTest {

    @Test
    void thePercentileFollowsTheModelWhenItSlowsDown() {
        LiveLatency live = new LiveLatency(30_000, 6);
        long t = 1_000_000;
        for (int i = 0; i < 100; i++) {
            live.record(t + i * 100, 500);
        }
        assertEquals(500, live.percentile(t + 10_000, 95), 5);
        // the model slows to 3 s; a window later the fast answers are gone
        long slow = t + 20_000;
        for (int i = 0; i < 100; i++) {
            live.record(slow + i * 300, 3_000);
        }
        long later = slow + 30_000;
        assertEquals(3_000, live.percentile(later, 50), 30);
        assertEquals(3_000, live.percentile(later, 95), 30);
        assertTrue(live.count(later) < 200, "the first 100 answers aged out");
    }

    @Test
    void theRecentPercentileIsJudgedOnTheNewestSlicesThatHoldEnoughAnswers() {
        LiveLatency live = new LiveLatency(10_000, 10);
        long t = 1_000_000;
        for (int i = 0; i < 60; i++) {
            live.record(t + i * 100, 3_000); // 6 s of slow answers
        }
        for (int i = 0; i < 30; i++) {
            live.record(t + 6_000 + i * 100, 500); // then 3 s of fast ones
        }
        long now = t + 8_999;
        assertEquals(3_000, live.percentile(now, 95), 30, "the whole window still holds the slow ones");
        assertEquals(500, live.recentPercentile(now, 95, 20).orElseThrow(), 5, "the newest 20 or more are fast");
        assertEquals(3_000, live.recentPercentile(now, 95, 50).orElseThrow(), 30, "50 reach back into the slow ones");
        assertTrue(live.recentPercentile(now, 95, 91).isEmpty(), "the window holds 90");
        assertTrue(new LiveLatency(10_000, 10).recentPercentile(now, 95, 1).isEmpty());
    }

    @Test
    void anEmptyWindowCountsNothing() {
        LiveLatency live = new LiveLatency(30_000, 6);
        live.record(0, 700);
        assertEquals(1, live.count(1));
        assertEquals(0, live.count(31_000));
        assertEquals(0, live.percentile(31_000, 95));
    }

    @Property
    void theWindowHoldsExactlyTheAnswersOfItsSlices(@ForAll @IntRange(min = 1, max = 400) int answers,
            @ForAll @LongRange(min = 1, max = 500) long gapMs, @ForAll @LongRange(min = 0, max = 10_000_000) long start) {
        LiveLatency live = new LiveLatency(30_000, 6);
        long last = start;
        for (int i = 0; i < answers; i++) {
            last = start + i * gapMs;
            live.record(last, i);
        }
        long sliceStart = Math.floorDiv(last, 5_000) * 5_000;
        long oldestCounted = sliceStart - 25_000;
        long expected = 0;
        for (int i = 0; i < answers; i++) {
            if (start + i * gapMs >= oldestCounted) {
                expected++;
            }
        }
        assertEquals(expected, live.count(last));
    }

    @Test
    void outputLengthsShareAClassWithinAPowerOfFour() {
        assertEquals(64, LatencyClass.of("b", "m", 0).outputTokensUpTo());
        assertEquals(64, LatencyClass.of("b", "m", 64).outputTokensUpTo());
        assertEquals(256, LatencyClass.of("b", "m", 65).outputTokensUpTo());
        assertEquals(1_024, LatencyClass.of("b", "m", 1_000).outputTokensUpTo());
        assertEquals(LatencyClass.of("b", "m", 300), LatencyClass.of("b", "m", 1_024));
        assertTrue(LatencyClass.of("b", "m", Long.MAX_VALUE).outputTokensUpTo() > 0);
    }
}

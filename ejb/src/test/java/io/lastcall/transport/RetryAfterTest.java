package io.lastcall.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.OptionalLong;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.message.BasicHeader;
import org.junit.jupiter.api.Test;

class RetryAfterTest {

    private static final long NOW = 1_800_000_000_000L;

    private static OptionalLong pause(Header... headers) {
        return RetryAfter.millis(headers, NOW);
    }

    @Test
    void retryAfterInSecondsOrAsAnHttpDate() {
        assertEquals(OptionalLong.of(5_000), pause(new BasicHeader("Retry-After", "5")));
        String inSevenSeconds = DateTimeFormatter.RFC_1123_DATE_TIME.format(
                Instant.ofEpochMilli(NOW + 7_000).atOffset(ZoneOffset.UTC));
        assertEquals(OptionalLong.of(7_000), pause(new BasicHeader("retry-after", inSevenSeconds)));
        String past = DateTimeFormatter.RFC_1123_DATE_TIME.format(Instant.ofEpochMilli(NOW - 60_000).atOffset(ZoneOffset.UTC));
        assertEquals(OptionalLong.of(0), pause(new BasicHeader("Retry-After", past)), "a date gone by: no pause left");
    }

    @Test
    void retryAfterWinsOverTheResetHeaders() {
        assertEquals(OptionalLong.of(2_000), pause(new BasicHeader("x-ratelimit-reset-requests", "30s"),
                new BasicHeader("x-ratelimit-remaining-requests", "0"), new BasicHeader("Retry-After", "2")));
    }

    @Test
    void theExhaustedLimitsResetDecides() {
        // tokens exhausted: its reset, though the requests' reset is shorter
        assertEquals(OptionalLong.of(360_000), pause(
                new BasicHeader("x-ratelimit-remaining-requests", "59"), new BasicHeader("x-ratelimit-reset-requests", "1s"),
                new BasicHeader("x-ratelimit-remaining-tokens", "0"), new BasicHeader("x-ratelimit-reset-tokens", "6m0s")));
        // none reported exhausted: the shortest reset
        assertEquals(OptionalLong.of(20), pause(new BasicHeader("x-ratelimit-reset-requests", "20ms"),
                new BasicHeader("x-ratelimit-reset-tokens", "1.5s")));
    }

    @Test
    void nothingUsableIsNoPause() {
        assertEquals(OptionalLong.empty(), pause());
        assertEquals(OptionalLong.empty(), pause(new BasicHeader("Retry-After", "soon")));
        assertEquals(OptionalLong.empty(), pause(new BasicHeader("x-ratelimit-reset-requests", "1x")));
        assertEquals(OptionalLong.empty(), pause(new BasicHeader("Retry-After", "-3")));
    }

    @Test
    void durations() {
        assertEquals(OptionalLong.of(3_723_500), RetryAfter.duration("1h2m3.5s"));
        assertEquals(OptionalLong.of(500), RetryAfter.duration("0.5"));
        assertEquals(OptionalLong.of(60_000), RetryAfter.duration("1m"));
        assertEquals(OptionalLong.empty(), RetryAfter.duration("s"));
        assertEquals(OptionalLong.empty(), RetryAfter.duration("2s junk"));
    }

    @Property(tries = 500)
    void aDurationReadsBackAsWritten(@ForAll @IntRange(max = 23) int h, @ForAll @IntRange(max = 59) int m,
            @ForAll @IntRange(max = 59) int s, @ForAll @IntRange(max = 999) int ms) {
        String written = h + "h" + m + "m" + s + "s" + ms + "ms";
        assertEquals(OptionalLong.of(((h * 60L + m) * 60 + s) * 1000 + ms), RetryAfter.duration(written));
    }
}

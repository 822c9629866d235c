package io.lastcall.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.message.BasicHeader;
import org.junit.jupiter.api.Test;

class RateRemainingTest {

    @Test
    void readsBothCountsWhateverTheirCase() {
        assertEquals(new RateRemaining(59L, 149_000L), RateRemaining.of(new Header[] {
                new BasicHeader("X-RateLimit-Remaining-Requests", "59"),
                new BasicHeader("x-ratelimit-remaining-tokens", " 149000 "),
                new BasicHeader("x-ratelimit-reset-requests", "1s")}));
    }

    @Test
    void whatIsNotAWholeNumberIsNotReported() {
        RateRemaining none = RateRemaining.of(new Header[] {new BasicHeader("x-ratelimit-remaining-requests", "-1"),
                new BasicHeader("x-ratelimit-remaining-tokens", "lots")});
        assertFalse(none.known());
        assertEquals(new RateRemaining(null, 7L), RateRemaining.of(new Header[] {
                new BasicHeader("x-ratelimit-remaining-tokens", "7")}));
    }
}

package io.lastcall.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Jobs waiting locally for a dispatch permit are served earliest-deadline-first across the
 * consumers: a job with a later deadline that arrived first waits behind one with an earlier
 * deadline when a permit frees up.
 */
@ExtendWith(ArquillianExtension.class)
class PermitOrderIT extends SpyBackedDeployment {

    @Test
    void theEarlierDeadlineGetsTheNextPermitThoughItArrivedLater() {
        String shortHolder = Jobs.newId("edf-holder-short");
        String longHolder = Jobs.newId("edf-holder-long");
        Jobs.submit(Jobs.envelope(shortHolder, Jobs.now() + 60_000, "spy-delay-1500"));
        Jobs.submit(Jobs.envelope(longHolder, Jobs.now() + 60_000, "spy-delay-8000"));
        Await.until("both permits held", Duration.ofSeconds(30), () -> spy.requestsFor(shortHolder).size()
                + spy.requestsFor(longHolder).size(), n -> n == 2);

        String later = Jobs.newId("edf-later");
        Jobs.submit(Jobs.envelope(later, Jobs.now() + 60_000, "spy-ok"));
        awaitWaiting(1);
        String earlier = Jobs.newId("edf-earlier");
        Jobs.submit(Jobs.envelope(earlier, Jobs.now() + 30_000, "spy-ok"));
        awaitWaiting(2);

        assertEquals("COMPLETED", Jobs.awaitOutcome(earlier, Duration.ofSeconds(30)).getString("outcome"));
        assertEquals("COMPLETED", Jobs.awaitOutcome(later, Duration.ofSeconds(30)).getString("outcome"));
        long earlierAt = spy.requestsFor(earlier).get(0).receivedAt();
        long laterAt = spy.requestsFor(later).get(0).receivedAt();
        assertTrue(earlierAt < laterAt, "the earlier deadline was dispatched first: " + earlierAt + " vs " + laterAt);
        assertTrue(spy.requestsFor(longHolder).get(0).receivedAt() + 8_000 > earlierAt,
                "it took the permit the short holder freed, not the long one's");
    }

    private static void awaitWaiting(int n) {
        Await.until(n + " waiting for a permit", Duration.ofSeconds(30), () -> Api.get("/api/health").json()
                .asJsonObject().getJsonObject("dispatch").getInt("waiting"), w -> w == n);
    }
}

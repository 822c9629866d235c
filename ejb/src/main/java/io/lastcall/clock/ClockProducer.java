package io.lastcall.clock;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import java.time.Clock;

/** The application server's wall clock, in UTC epoch milliseconds. One place to swap it. */
@ApplicationScoped
public class ClockProducer {

    @Produces
    @ApplicationScoped
    public Clock wallClock() {
        return Clock.systemUTC();
    }
}

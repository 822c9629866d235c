package io.lastcall.clock;

import io.lastcall.schema.DatabaseProbe;
import io.lastcall.policy.Settings;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.logging.Logger;

/**
 * Compares the local wall clock with a reference ({@code lastcall.clock.reference}):
 * {@code database} (the ledger database's CURRENT_TIMESTAMP), an {@code http://…} URL (its
 * {@code Date} header, 1 s resolution), or {@code none} (unchecked, said so in health). A skew
 * beyond {@code lastcall.clock.max-skew-ms}, or a reference that cannot be read, is unhealthy:
 * admission stops, or with {@code lastcall.clock.degraded-policy=widen-margin} every deadline
 * check adds {@code lastcall.clock.degraded-margin-ms}. Readings are cached for
 * {@code lastcall.clock.check-interval-ms}. A CDI bean, not an EJB: every job's checks ask it for
 * the margin, and only its database reading needs the EJB container ({@link DatabaseProbe}).
 */
@ApplicationScoped
public class ClockHealth {

    private static final Logger LOG = Logger.getLogger(ClockHealth.class.getName());

    public enum Status { HEALTHY, UNHEALTHY, UNKNOWN, UNCHECKED }

    /**
     * One comparison with the reference; {@code checkedNanos} is when it was taken on the
     * monotonic clock, so its age never depends on the wall clock it is checking.
     */
    public record Reading(Status status, String reference, Long skewMs, String detail, long checkedAt,
            long checkedNanos) {
        Reading(Status status, String reference, Long skewMs, String detail, long checkedAt) {
            this(status, reference, skewMs, detail, checkedAt, System.nanoTime());
        }

        public boolean trusted() {
            return status == Status.HEALTHY || status == Status.UNCHECKED;
        }
    }

    @Inject
    Settings settings;

    @Inject
    Clock clock;

    @EJB
    DatabaseProbe database;

    private volatile Reading last;

    public Reading current() {
        Reading reading = last;
        if (reading == null || java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(System.nanoTime()
                - reading.checkedNanos()) > settings.clock().checkIntervalMs()) {
            reading = measure();
            if (last == null || reading.status() != last.status()) {
                if (reading.trusted()) {
                    LOG.info("Clock health " + reading.status() + " against " + reading.reference() + ": " + reading.detail());
                } else {
                    LOG.warning("Clock health " + reading.status() + " against " + reading.reference() + ": "
                            + reading.detail() + "; admission policy: " + settings.clock().degradedPolicy());
                }
            }
            last = reading;
        }
        return reading;
    }

    /** Whether ingress may admit jobs now. */
    public boolean admits() {
        return current().trusted() || "widen-margin".equals(settings.clock().degradedPolicy());
    }

    /**
     * The whole margin every deadline check subtracts from a remaining lifetime: the configured
     * clock uncertainty plus the extra margin of a degraded clock.
     */
    public long marginMs() {
        return settings.clock().uncertaintyMs() + extraMarginMs();
    }

    /**
     * Extra margin while the clock is not trusted (degraded policy): at least the measured skew,
     * so that with the uncertainty the margin covers it.
     */
    private long extraMarginMs() {
        Reading reading = current();
        if (reading.trusted()) {
            return 0;
        }
        long skew = reading.skewMs() == null ? 0 : Math.abs(reading.skewMs());
        return Math.max(settings.clock().degradedMarginMs(), skew);
    }

    private Reading measure() {
        String reference = settings.clock().reference();
        long bound = settings.clock().maxSkewMs();
        long before = clock.millis();
        try {
            long theirs;
            if ("none".equals(reference)) {
                return new Reading(Status.UNCHECKED, reference, null, "clock check disabled", before);
            } else if ("database".equals(reference)) {
                theirs = database.databaseTimeMillis();
            } else if (reference.startsWith("http://") || reference.startsWith("https://")) {
                theirs = httpDate(reference);
                bound = Math.max(bound, 1_000);
            } else {
                return new Reading(Status.UNKNOWN, reference, null, "unknown lastcall.clock.reference '" + reference
                        + "' (database, none or an http URL)", before);
            }
            long after = clock.millis();
            long skew = theirs - (before + after) / 2;
            Status status = Math.abs(skew) > bound + (after - before) / 2 ? Status.UNHEALTHY : Status.HEALTHY;
            return new Reading(status, reference, skew, "skew " + skew + " ms, bound " + bound + " ms", after);
        } catch (RuntimeException e) {
            return new Reading(Status.UNKNOWN, reference, null, "cannot read the reference clock: " + e.getMessage(),
                    clock.millis());
        }
    }

    private static long httpDate(String url) {
        try {
            HttpResponse<Void> response = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build()
                    .send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2))
                            .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(),
                            HttpResponse.BodyHandlers.discarding());
            String date = response.headers().firstValue("Date")
                    .orElseThrow(() -> new IllegalStateException(url + " sent no Date header"));
            return ZonedDateTime.parse(date, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli() + 500;
        } catch (java.io.IOException e) {
            throw new IllegalStateException(url + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}

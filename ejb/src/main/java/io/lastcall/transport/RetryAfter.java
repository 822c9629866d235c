package io.lastcall.transport;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hc.core5.http.Header;

/**
 * How long a backend that refused a request asks not to be called again, from its answer's
 * headers: {@code Retry-After} (delay-seconds or an HTTP date, RFC 9110 §10.2.3) when present;
 * else the {@code x-ratelimit-reset-*} of the limits whose {@code x-ratelimit-remaining-*} is 0
 * (durations such as {@code 1s}, {@code 6m0s}, {@code 20ms}), the longest of them; else the
 * shortest reset announced. Never negative; empty when the answer says nothing usable. Pure.
 */
public final class RetryAfter {

    private static final String RESET = "x-ratelimit-reset-";
    private static final String REMAINING = "x-ratelimit-remaining-";
    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|h|m|s)");

    private RetryAfter() {
    }

    /** The pause the headers ask for, in ms from {@code nowMs} (epoch ms, for an HTTP date). */
    public static OptionalLong millis(Header[] headers, long nowMs) {
        OptionalLong exhausted = OptionalLong.empty();
        OptionalLong shortest = OptionalLong.empty();
        for (Header header : headers) {
            String name = header.getName().toLowerCase(Locale.ROOT);
            if (name.equals("retry-after")) {
                OptionalLong asked = retryAfter(header.getValue(), nowMs);
                if (asked.isPresent()) {
                    return asked;
                }
            } else if (name.startsWith(RESET)) {
                OptionalLong reset = duration(header.getValue());
                if (reset.isEmpty()) {
                    continue;
                }
                shortest = min(shortest, reset.getAsLong());
                if (isZero(value(headers, REMAINING + name.substring(RESET.length())))) {
                    exhausted = max(exhausted, reset.getAsLong());
                }
            }
        }
        return exhausted.isPresent() ? exhausted : shortest;
    }

    /** {@code Retry-After}: whole seconds, or an HTTP date (IMF-fixdate) that is turned into a delay from now. */
    static OptionalLong retryAfter(String value, long nowMs) {
        String v = value.trim();
        if (v.matches("\\d{1,9}")) {
            return OptionalLong.of(Long.parseLong(v) * 1000);
        }
        try {
            long at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli();
            return OptionalLong.of(Math.max(0, at - nowMs));
        } catch (DateTimeParseException notADate) {
            return OptionalLong.empty();
        }
    }

    /** A reset duration: {@code 1h2m3.5s}, {@code 6m0s}, {@code 20ms}, or bare seconds ({@code 2}, {@code 0.5}). */
    static OptionalLong duration(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        if (v.matches("\\d{1,9}(\\.\\d+)?")) {
            return OptionalLong.of(Math.round(Double.parseDouble(v) * 1000));
        }
        Matcher part = DURATION.matcher(v);
        double ms = 0;
        int end = 0;
        while (part.find() && part.start() == end) {
            double n = Double.parseDouble(part.group(1));
            ms += switch (part.group(2)) {
                case "h" -> n * 3_600_000;
                case "m" -> n * 60_000;
                case "s" -> n * 1_000;
                default -> n;
            };
            end = part.end();
        }
        return end == v.length() && end > 0 ? OptionalLong.of(Math.round(ms)) : OptionalLong.empty();
    }

    private static String value(Header[] headers, String name) {
        for (Header header : headers) {
            if (header.getName().equalsIgnoreCase(name)) {
                return header.getValue();
            }
        }
        return null;
    }

    private static boolean isZero(String remaining) {
        return remaining != null && remaining.trim().matches("0+");
    }

    private static OptionalLong min(OptionalLong a, long b) {
        return OptionalLong.of(a.isPresent() ? Math.min(a.getAsLong(), b) : b);
    }

    private static OptionalLong max(OptionalLong a, long b) {
        return OptionalLong.of(a.isPresent() ? Math.max(a.getAsLong(), b) : b);
    }
}

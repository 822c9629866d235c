package io.lastcall.job;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How two source revisions of one subject compare (docs/api.md, "Revisions"): revisions that end in
 * a number after the same prefix ({@code r7} &lt; {@code r10}, {@code 41} &lt; {@code 42}) compare
 * by that number; two ISO-8601 instants compare as instants; anything else is incomparable, and
 * an incomparable revision is never taken as older, so an announcement can never supersede work
 * that may be newer. Pure.
 */
public final class RevisionOrder {

    private static final Pattern PREFIX_NUMBER = Pattern.compile("(.*?)(\\d{1,18})");

    private RevisionOrder() {
    }

    /** Negative, zero or positive as {@code a} is older than, equal to or newer than {@code b}; empty if incomparable. */
    public static Optional<Integer> compare(String a, String b) {
        if (a.equals(b)) {
            return Optional.of(0);
        }
        Matcher ma = PREFIX_NUMBER.matcher(a);
        Matcher mb = PREFIX_NUMBER.matcher(b);
        if (ma.matches() && mb.matches() && ma.group(1).equals(mb.group(1))) {
            int byNumber = Long.compare(Long.parseLong(ma.group(2)), Long.parseLong(mb.group(2)));
            return Optional.of(byNumber);
        }
        Optional<Instant> ia = instant(a);
        Optional<Instant> ib = instant(b);
        if (ia.isPresent() && ib.isPresent()) {
            return Optional.of(ia.get().compareTo(ib.get()));
        }
        return Optional.empty();
    }

    /** Whether a job of revision {@code candidate} is outdated by the announced {@code latest}. */
    public static boolean isOlder(String candidate, String latest) {
        return compare(candidate, latest).map(c -> c < 0).orElse(false);
    }

    private static Optional<Instant> instant(String s) {
        try {
            return Optional.of(Instant.parse(s));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}

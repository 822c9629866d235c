package io.lastcall.web;

import io.lastcall.ledger.JobFilter;
import io.lastcall.job.JobState;
import jakarta.ws.rs.core.MultivaluedMap;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The query of {@code GET /api/jobs} and {@code /api/jobs/export} as a {@link JobFilter}:
 * {@code workload}, {@code outcome} (a terminal state), {@code state}, {@code reason}, {@code from}
 * and {@code to} (accepted_at, epoch ms, to exclusive), {@code limit} (1–1000, default 100),
 * {@code order} (oldest first, the default, or newest) and {@code after} (the opaque cursor of the
 * previous page's {@code next}).
 */
final class JobSearch {

    /** A query that cannot be run, and why. */
    static final class Invalid extends Exception {
        private static final long serialVersionUID = 1L;

        Invalid(String message) {
            super(message);
        }
    }

    private JobSearch() {
    }

    static JobFilter filter(MultivaluedMap<String, String> q, String submittedBy) throws Invalid {
        String state = q.getFirst("state");
        String outcome = q.getFirst("outcome");
        if (state != null && outcome != null && !state.equals(outcome)) {
            throw new Invalid("give state or outcome, not both");
        }
        String wanted = outcome != null ? outcome : state;
        if (wanted != null) {
            try {
                JobState parsed = JobState.valueOf(wanted);
                if (outcome != null && !parsed.isTerminal()) {
                    throw new Invalid("outcome " + wanted + " is not a terminal state");
                }
            } catch (IllegalArgumentException e) {
                throw new Invalid("unknown state " + wanted);
            }
        }
        long limit = number(q, "limit", 100L);
        if (limit < 1 || limit > JobFilter.MAX_LIMIT) {
            throw new Invalid("limit must be 1-" + JobFilter.MAX_LIMIT);
        }
        Long afterAt = null;
        String afterId = null;
        if (q.getFirst("after") != null) {
            String[] cursor = decode(q.getFirst("after"));
            afterAt = Long.parseLong(cursor[0]);
            afterId = cursor[1];
        }
        String order = q.getFirst("order");
        if (order != null && !order.equals("newest") && !order.equals("oldest")) {
            throw new Invalid("order must be oldest (the default) or newest");
        }
        return new JobFilter(blankToNull(q.getFirst("workload")), wanted, blankToNull(q.getFirst("reason")),
                number(q, "from", null), number(q, "to", null), submittedBy, afterAt, afterId, (int) limit,
                "newest".equals(order));
    }

    /** The cursor that continues after a job accepted at {@code acceptedAt} with {@code jobId}. */
    static String cursor(long acceptedAt, String jobId) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString((acceptedAt + ":" + jobId)
                .getBytes(StandardCharsets.UTF_8));
    }

    private static String[] decode(String cursor) throws Invalid {
        try {
            String text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            int colon = text.indexOf(':');
            Long.parseLong(text.substring(0, colon));
            return new String[] {text.substring(0, colon), text.substring(colon + 1)};
        } catch (IllegalArgumentException | StringIndexOutOfBoundsException e) {
            throw new Invalid("after is not a cursor this API gave out");
        }
    }

    private static Long number(MultivaluedMap<String, String> q, String name, Long fallback) throws Invalid {
        String value = q.getFirst(name);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new Invalid(name + " must be a whole number");
        }
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}

package io.lastcall.dispatch;

import io.lastcall.transport.RateRemaining;

/** What one request to the model backend came to, once it was written. */
public record ModelResult(Kind kind, Integer httpStatus, Long promptTokens, Long completionTokens, String content,
        String error, Long answeredAt, Long retryAfterMs, RateRemaining remaining) {

    public ModelResult(Kind kind, Integer httpStatus, Long promptTokens, Long completionTokens, String content,
            String error) {
        this(kind, httpStatus, promptTokens, completionTokens, content, error, null, null, RateRemaining.UNKNOWN);
    }

    /** This result, answered at {@code at} (epoch ms): lateness is judged by when the answer arrived. */
    public ModelResult answeredAt(long at) {
        return new ModelResult(kind, httpStatus, promptTokens, completionTokens, content, error, at, retryAfterMs,
                remaining);
    }

    /** This refusal, with the pause the backend asked for (Retry-After or its rate-limit reset), in ms. */
    public ModelResult retryAfter(long ms) {
        return new ModelResult(kind, httpStatus, promptTokens, completionTokens, content, error, answeredAt, ms,
                remaining);
    }

    /** This result, with what the backend said is left of its rate limits. */
    public ModelResult remaining(RateRemaining left) {
        return new ModelResult(kind, httpStatus, promptTokens, completionTokens, content, error, answeredAt,
                retryAfterMs, left);
    }

    public enum Kind {
        /** a 2xx answer; usage as reported (null when the backend sent none) */
        COMPLETED,
        /** a status the provider documents as "not processed" (lastcall.model.not-processed-statuses): may be retried */
        NOT_PROCESSED,
        /** any other error status: the work may have run, so it is never retried and its exposure stays reserved */
        HTTP_ERROR,
        /** may have run remotely: timeout or a broken connection after the request was written */
        UNKNOWN
    }

    public static ModelResult completed(int status, Long prompt, Long completion, String content) {
        return new ModelResult(Kind.COMPLETED, status, prompt, completion, storable(content), null);
    }

    public static ModelResult error(int status, String error, boolean notProcessed) {
        return new ModelResult(notProcessed ? Kind.NOT_PROCESSED : Kind.HTTP_ERROR, status, null, null, null,
                storable(error));
    }

    public static ModelResult unknown(String error) {
        return new ModelResult(Kind.UNKNOWN, null, null, null, null, storable(error));
    }

    /**
     * Text a database column takes: PostgreSQL refuses U+0000 in text, so it is stored as the six
     * characters {@code \u0000} (a settlement must never fail on what the model wrote).
     */
    static String storable(String text) {
        return text == null || text.indexOf('\u0000') < 0 ? text : text.replace("\u0000", "\\u0000");
    }

    /** Whether the backend reported usage (prompt and completion tokens). */
    public boolean hasUsage() {
        return promptTokens != null && completionTokens != null;
    }
}
